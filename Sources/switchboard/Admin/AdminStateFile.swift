import Foundation
import SwitchboardCore
import SwitchboardServer
import SwitchboardStore

/// The file `switchboard admin apply -f` reads and `admin rules get` / `admin routes get` write:
/// the `rewrites.yaml` format for the admin rules (`rules:`), and the admin routes
/// (`routes:`, each with its `module`). A key left out leaves that part of the server as it is.
struct AdminStateFile {
    /// The admin rules the server is to have, `nil` when the file has no `rules` key.
    var rules: [RewriteRule]?
    /// The admin routes the server is to have, `nil` when the file has no `routes` key.
    var routes: [AdminRoute]?
    /// The file's text, to find the line of a rule or route a refusal names.
    var text: String
    /// The file's path as given.
    var path: String

    /// Reads and decodes `path` with the server's own types (`AdminRuleItem`, `AdminRoute`).
    ///
    /// - Throws: ``AdminClientError/usage(_:)`` naming the file, line and key at fault.
    init(path: String) throws(AdminClientError) {
        self.path = path
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .usage("cannot read \(path): \(error.localizedDescription)")
        }
        let decoded: Content
        do {
            decoded = try ConfigDirectory.decodeYAML(Content.self, from: text)
        } catch {
            let place = SourcePosition.of(error, in: text).map { "\(path):\($0)" } ?? path
            throw .usage("\(place): \(DecodingErrorDescription.describe(error))")
        }
        guard decoded.rules != nil || decoded.routes != nil else {
            throw .usage("\(path) has neither 'rules' nor 'routes': nothing to apply")
        }
        rules = decoded.rules?.map(\.rule)
        routes = decoded.routes
    }

    /// `path:line:column` of the rule or route `id`, or the path alone when it is not found.
    func place(of id: String?) -> String {
        guard let id, let position = SourcePosition.ofItem(id, in: text) else { return path }
        return "\(path):\(position)"
    }

    /// The keys of the file.
    private struct Content: Decodable {
        var rules: [AdminRuleItem]?
        var routes: [AdminRoute]?

        enum CodingKeys: String, CodingKey, CaseIterable { case rules, routes }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            rules = try container.decodeIfPresent([AdminRuleItem].self, forKey: .rules)
            routes = try container.decodeIfPresent([AdminRoute].self, forKey: .routes)
        }
    }
}
