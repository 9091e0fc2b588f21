import Foundation
import SwitchboardTestSupport

/// Requests of the Switchboard API over the test client.
extension HTTPTestClient {
    /// `GET /resolve?url=<url, percent-encoded as a query value>`.
    /// The answer is checked against `openapi.yaml` (``OpenAPIConformance``).
    func resolve(_ url: String, extraQuery: String = "") throws -> HTTPTestResponse {
        let target = "/resolve?url=" + Self.queryValue(url) + extraQuery
        let response = try request("GET", target)
        OpenAPIConformance.check("GET", target, response)
        return response
    }

    /// An admin call with `Authorization: Bearer <token>` (when given) and a JSON body; any
    /// path, not only `/admin`. The answer is checked against `openapi.yaml` (``OpenAPIConformance``).
    func admin(
        _ method: String, _ path: String, token: String? = TestToken.admin, json: String? = nil, headers: [(String, String)] = []
    ) throws -> HTTPTestResponse {
        var all = headers
        if let token { all.append(("Authorization", "Bearer \(token)")) }
        if json != nil { all.append(("Content-Type", "application/json")) }
        let response = try request(method, path, headers: all, body: json.map { Array($0.utf8) })
        OpenAPIConformance.check(method, path, response)
        return response
    }

    /// `value` percent-encoded for a query value (everything but unreserved characters).
    static func queryValue(_ value: String) -> String {
        var unreserved = CharacterSet.alphanumerics
        unreserved.insert(charactersIn: "-._~")
        var out = ""
        for byte in value.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, unreserved.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}

extension HTTPTestResponse {
    /// The body as a JSON object (`[:]` when it is not one).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }

    /// `error.code` of an error body.
    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }

    /// `error.message` of an error body.
    var errorMessage: String { ((json["error"] as? [String: Any])?["message"] as? String) ?? "" }

    /// The `ETag` header.
    var etag: String? { header("ETag") }

    /// Status, headers and body, for failure messages.
    var dump: String {
        "\(status) " + headers.map { "\($0.name): \($0.value)" }.joined(separator: "; ") + "\n" + text
    }
}

/// One Prometheus sample line's value: `name{labels} value`, e.g.
/// `metricValue(text, "switchboard_reloads_total{result=\"failed\"}")`.
func metricValue(_ text: String, _ series: String) -> Double? {
    for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
        return Double(line.dropFirst(series.count + 1))
    }
    return nil
}
