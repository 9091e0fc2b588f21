import Foundation
import SwitchboardTestSupport
import Testing

/// Checks every answer the server tests receive through ``HTTPTestClient/admin(_:_:token:json:headers:)``
/// and ``HTTPTestClient/resolve(_:extraQuery:)`` against `openapi.yaml`: when the document lists
/// the operation and the status, the content type, the headers and the body must be as documented.
///
/// A status the document does not list is left to the coverage test
/// (`OpenAPICoverageTests`), which knows which undocumented answers are meant (405, 404 of
/// unknown paths, a malformed query); here it would flag the tests that provoke them on purpose.
enum OpenAPIConformance {
    /// The parsed document, read once per test process (it never changes while tests run).
    private final class Parsed: @unchecked Sendable {
        let document: IntegrationTests.OpenAPICoverageTests.Document?
        let templates: [(template: [Substring], path: String)]

        init() {
            document = try? IntegrationTests.OpenAPICoverageTests.Document()
            templates = (document?.paths.keys.sorted() ?? []).map { ($0.split(separator: "/"), $0) }
        }
    }

    private static let parsed = Parsed()

    /// The documented path that `target` (a path with an optional query) is an instance of.
    static func documentedPath(of target: String) -> String? {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let segments = path.split(separator: "/")
        return parsed.templates.first { template, _ in
            template.count == segments.count
                && zip(template, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }?.path
    }

    /// Records an issue for every way `response` to `method target` differs from the document.
    static func check(_ method: String, _ target: String, _ response: HTTPTestResponse) {
        guard let document = parsed.document else {
            Issue.record("openapi.yaml does not load")
            return
        }
        guard let path = documentedPath(of: target) else { return }
        let operation = "\(method) \(path)"
        guard let documented = document.operations[operation],
            let spec = document.responses(documented)["\(response.status)"]
        else { return }
        document.check(response, against: spec, operation)
    }
}
