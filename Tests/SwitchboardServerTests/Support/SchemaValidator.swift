import SwitchboardCore
import SwitchboardTestSupport

/// Checks a JSON value against an OpenAPI 3.0 schema (the subset `openapi.yaml` uses:
/// `$ref`, `type`, `required`, `properties`, `additionalProperties`, `items`, `enum`,
/// `allOf`, `oneOf`, and the bounds `minLength`, `maxLength`, `minimum`, `maximum`,
/// `minItems`, `maxItems`).
///
/// Stricter than JSON Schema on one point, so that the document stays complete: an object
/// member that the schema does not list is a problem unless `additionalProperties` allows it.
struct SchemaValidator {
    /// Resolves `#/components/...` references.
    let resolve: (String) -> [String: Any]?

    /// Every problem found, each with its JSON path (`$.lastReload.trigger`).
    func problems(_ value: JSONValue, _ schema: [String: Any], at path: String = "$") -> [String] {
        if let reference = schema["$ref"] as? String {
            guard let target = resolve(reference) else { return ["\(path): unresolved \(reference)"] }
            return problems(value, target, at: path)
        }
        var found: [String] = []
        if let parts = schema["allOf"] as? [[String: Any]] {
            // Each part on its own (as JSON Schema does), members checked against all parts.
            for part in parts { found += problems(value, part, at: path, listedElsewhere: names(in: parts)) }
            return found
        }
        if let options = schema["oneOf"] as? [[String: Any]] {
            let matching = options.filter { problems(value, $0, at: path).isEmpty }.count
            return matching == 1 ? [] : ["\(path): matches \(matching) of the oneOf schemas"]
        }
        return problems(value, schema, at: path, listedElsewhere: [])
    }

    private func problems(_ value: JSONValue, _ schema: [String: Any], at path: String, listedElsewhere: Set<String>) -> [String] {
        if schema["$ref"] != nil || schema["allOf"] != nil || schema["oneOf"] != nil {
            return problems(value, schema, at: path)
        }
        if let allowed = schema["enum"] as? [Any] {
            let texts = allowed.map { "\($0)" }
            if case .string(let text) = value, !texts.contains(text) { return ["\(path): '\(text)' is not one of \(texts)"] }
        }
        switch (schema["type"] as? String, value) {
        case ("string", .string(let text)):
            return bounds(Double(text.count), schema, "minLength", "maxLength", at: path, of: "length")
        case ("number", .number(let number)):
            return bounds(number, schema, "minimum", "maximum", at: path, of: "value")
        case (nil, _), ("boolean", .bool):
            return []
        case ("integer", .number(let number)):
            guard number.rounded() == number else { return ["\(path): \(number) is not an integer"] }
            return bounds(number, schema, "minimum", "maximum", at: path, of: "value")
        case ("array", .array(let items)):
            let counted = bounds(Double(items.count), schema, "minItems", "maxItems", at: path, of: "item count")
            guard let itemSchema = schema["items"] as? [String: Any] else { return counted }
            return counted + items.enumerated().flatMap { problems($0.element, itemSchema, at: "\(path)[\($0.offset)]") }
        case ("object", .object(let members)):
            var found: [String] = []
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for name in schema["required"] as? [String] ?? [] where !members.contains(where: { $0.key == name }) {
                found.append("\(path): missing required member '\(name)'")
            }
            for (key, member) in members {
                let memberPath = "\(path).\(key)"
                if let property = properties[key] as? [String: Any] {
                    found += problems(member, property, at: memberPath)
                } else if let additional = schema["additionalProperties"] as? [String: Any] {
                    found += problems(member, additional, at: memberPath)
                } else if schema["additionalProperties"] as? Bool == true {
                    continue
                } else if schema["additionalProperties"] as? Bool == false || !listedElsewhere.contains(key) {
                    found.append("\(memberPath): not in the schema")
                }
            }
            return found
        case (let type?, _):
            return ["\(path): expected \(type), found \(value)"]
        }
    }

    /// The problem, if any, of a `measure` (a length, a value, a count) outside the schema's
    /// `lower`/`upper` bounds.
    private func bounds(
        _ measure: Double, _ schema: [String: Any], _ lower: String, _ upper: String, at path: String, of what: String
    ) -> [String] {
        func number(_ bound: Any?) -> Double? { (bound as? Int).map(Double.init) ?? bound as? Double }
        if let minimum = number(schema[lower]), measure < minimum {
            return ["\(path): \(what) \(measure) is below \(lower) \(minimum)"]
        }
        if let maximum = number(schema[upper]), measure > maximum {
            return ["\(path): \(what) \(measure) is above \(upper) \(maximum)"]
        }
        return []
    }

    /// The property names the parts of an `allOf` list.
    private func names(in parts: [[String: Any]]) -> Set<String> {
        var result: Set<String> = []
        for var part in parts {
            if let reference = part["$ref"] as? String { part = resolve(reference) ?? [:] }
            result.formUnion((part["properties"] as? [String: Any] ?? [:]).keys)
        }
        return result
    }
}
