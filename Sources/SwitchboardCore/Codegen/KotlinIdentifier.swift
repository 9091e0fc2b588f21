/// Kotlin's side of the identifier rules: keywords and string literals (the shared rules are
/// ``CodegenIdentifier``).
enum KotlinIdentifier {
    /// The identifier as it must be written in a declaration or a reference: hard keywords
    /// get backticks, which Kotlin (and the JVM, for these names) accepts.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// Kotlin's hard keywords: the words that cannot name a property or a class anywhere.
    /// Soft and modifier keywords (`data`, `value`, `open`…) are valid names there.
    static let keywords: Set<String> = [
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface",
        "is", "null", "object", "package", "return", "super", "this", "throw", "true", "try", "typealias",
        "typeof", "val", "var", "when", "while",
    ]

    /// A string literal for generated code; `$` is escaped, so the text is never read as a template.
    static func literal(_ text: String) -> String {
        "\"" + templateText(text) + "\""
    }

    /// `text` escaped for the inside of a Kotlin string literal (template expressions may follow).
    static func templateText(_ text: String) -> String {
        var result = ""
        for unit in text.unicodeScalars {
            switch unit {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "$": result += "\\$"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if unit.value < 0x20 || unit.value == 0x7F {
                    let hex = String(unit.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(unit)
                }
            }
        }
        return result
    }

    /// Whether `name` is a valid Kotlin package: dot-separated plain identifiers.
    static func isPackageName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.allSatisfy { part in
            guard let first = part.first, first.isASCII, first.isLetter || first == "_" else { return false }
            return part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
    }
}
