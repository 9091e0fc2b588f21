import SwitchboardCore

extension ConfigCheck.Report {
    /// The JSON report: `{"ok", "strict", "routes", "rules", "errors", "lints", "findings": [...]}`,
    /// each finding `{"severity", "code", "file", "line", "column", "id", "message"}` with `null`
    /// where a part is not known.
    func json(strict: Bool) -> JSONValue {
        .object([
            ("ok", .bool(!fails(strict: strict))),
            ("strict", .bool(strict)),
            ("routes", .number(Double(routeCount))),
            ("rules", .number(Double(ruleCount))),
            ("errors", .number(Double(errors.count))),
            ("lints", .number(Double(warnings.count))),
            ("findings", .array(findings.map(\.json))),
        ])
    }
}

extension CheckFinding {
    /// The code of a finding whose issue has none: an invalid config, named by its message.
    static let invalidConfigCode = "invalid_config"

    /// The finding's stable code.
    package var code: String { issue.code ?? Self.invalidConfigCode }

    var json: JSONValue {
        func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
        func optional(_ number: Int?) -> JSONValue { number.map { .number(Double($0)) } ?? .null }
        return .object([
            ("severity", .string(severity.rawValue)),
            ("code", .string(code)),
            ("file", optional(path)),
            ("line", optional(issue.position?.line)),
            ("column", optional(issue.position?.column)),
            ("id", optional(issue.item)),
            ("message", .string(issue.message)),
        ])
    }
}
