import SwitchboardCore

extension JSONValue {
    /// The value as block YAML, the style of the config's own files: mappings and lists one
    /// item a line, every string double-quoted (JSON's escapes are YAML's), so that no value
    /// changes type or meaning when read back. Ends with a newline.
    var yamlText: String {
        switch self {
        case .object(let members) where !members.isEmpty:
            Self.mappingLines(members, indent: 0).joined(separator: "\n") + "\n"
        case .array(let values) where !values.isEmpty:
            Self.sequenceLines(values, indent: 0).joined(separator: "\n") + "\n"
        default:
            inlineYAML + "\n"
        }
    }

    /// A scalar or an empty collection on one line.
    private var inlineYAML: String {
        switch self {
        case .array: "[]"
        case .object: "{}"
        default: jsonText
        }
    }

    /// Whether the value is written on its own lines below its key or dash.
    private var isBlock: Bool {
        switch self {
        case .object(let members): !members.isEmpty
        case .array(let values): !values.isEmpty
        default: false
        }
    }

    private static func mappingLines(_ members: [(key: String, value: JSONValue)], indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        for (key, value) in members {
            let name = isPlainKey(key) ? key : JSONValue.string(key).jsonText
            guard value.isBlock else {
                lines.append("\(pad)\(name): \(value.inlineYAML)")
                continue
            }
            lines.append("\(pad)\(name):")
            lines += blockLines(value, indent: indent + 2)
        }
        return lines
    }

    private static func sequenceLines(_ values: [JSONValue], indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        for value in values {
            guard value.isBlock else {
                lines.append("\(pad)- \(value.inlineYAML)")
                continue
            }
            // The item's first line goes after the dash; the rest keep the item's indent.
            var item = blockLines(value, indent: indent + 2)
            item[0] = pad + "- " + item[0].dropFirst(indent + 2)
            lines += item
        }
        return lines
    }

    private static func blockLines(_ value: JSONValue, indent: Int) -> [String] {
        switch value {
        case .object(let members): mappingLines(members, indent: indent)
        case .array(let values): sequenceLines(values, indent: indent)
        default: [String(repeating: " ", count: indent) + value.inlineYAML]
        }
    }

    /// Whether a key can be written without quotes (letters, digits, `_`, `-`, `.`, not first a digit or `-`).
    private static func isPlainKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return key.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0))
        }
    }
}
