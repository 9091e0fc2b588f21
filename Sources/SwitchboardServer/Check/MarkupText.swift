/// Text made safe for markup the server writes by hand: the link-preview page (HTML) and
/// `check`'s JUnit report (XML).
enum MarkupText {
    /// `text` safe as element content and inside a double- or single-quoted attribute, in HTML
    /// and in XML 1.0: the five markup characters as references, a line break as `&#10;` (kept
    /// in an attribute), and any other control character but tab and carriage return, which
    /// XML 1.0 allows in no form, as `?`.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\n": result += "&#10;"
            case _ where scalar.value < 0x20 && scalar != "\t" && scalar != "\r": result += "?"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
