/// Turns decoder errors into one line that names the key path: `routes[2].pattern: …`.
public enum DecodingErrorDescription {
    /// One line for `error`: a `DecodingError` located by its key path, anything else as it
    /// describes itself.
    public static func describe(_ error: any Error) -> String {
        if let error = error as? DecodingError {
            switch error {
            case .dataCorrupted(let context):
                var message = context.debugDescription
                if let underlying = context.underlyingError {
                    message += " \(underlying)"
                }
                return located(context.codingPath, message)
            case .keyNotFound(let key, let context):
                return located(context.codingPath, "missing required key '\(key.stringValue)'")
            case .typeMismatch(let type, let context):
                return located(context.codingPath, "expected \(typeName(type)): \(context.debugDescription)")
            case .valueNotFound(let type, let context):
                return located(context.codingPath, "expected \(typeName(type)), found null")
            @unknown default:
                return "\(error)"
            }
        }
        return "\(error)"
    }

    private static func located(_ path: [any CodingKey], _ message: String) -> String {
        guard !path.isEmpty else { return message }
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return "\(text): \(message)"
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Bool.Type: "true or false"
        case is [Any].Type: "a list"
        default: "\(type)"
        }
    }
}
