import Foundation
import Logging
import SwitchboardCore

/// Maps HTTP requests to the endpoints of DESIGN §5 and records metrics and the access log.
package struct APIHandler: Sendable {
    let service: SwitchboardService
    let accessLog: Bool
    let openAPIDocument: [UInt8]

    package init(service: SwitchboardService, accessLog: Bool, openAPIDocument: [UInt8]) {
        self.service = service
        self.accessLog = accessLog
        self.openAPIDocument = openAPIDocument
    }

    /// Answers one request; called concurrently from the server's threads.
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        let started = ContinuousClock.now
        let (endpoint, response) = dispatch(request)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        service.metrics.recordRequest(endpoint: endpoint, status: response.status, seconds: seconds)
        if accessLog {
            service.logger.info(
                "\(request.method) \(request.target) \(response.status)",
                metadata: ["endpoint": "\(endpoint)", "micros": "\(Int(seconds * 1e6))"])
        }
        return response
    }

    private static let getHead = ["GET", "HEAD"]
    private static let getHeadPost = ["GET", "HEAD", "POST"]

    private func dispatch(_ request: HTTPRequest) -> (endpoint: String, HTTPResponse) {
        let path = request.path
        switch path {
        case "/resolve":
            if request.method == "POST" {
                return ("resolve_batch", ResolveEndpoint(service: service).post(request))
            }
            return ("resolve", only(Self.getHeadPost, request) { ResolveEndpoint(service: service).get(request) })
        case "/open":
            return ("open", only(Self.getHead, request) { OpenEndpoint(service: service).get(request) })
        case WellKnownEndpoint.appleAppSiteAssociationPath:
            return ("aasa", only(Self.getHead, request) { WellKnownEndpoint(service: service).appleAppSiteAssociation(request) })
        case WellKnownEndpoint.assetLinksPath:
            return ("assetlinks", only(Self.getHead, request) { WellKnownEndpoint(service: service).assetLinks() })
        case "/healthz":
            return ("healthz", only(Self.getHead, request) { .json(#"{"status":"ok"}"#) })
        case "/metrics":
            return (
                "metrics",
                only(Self.getHead, request) {
                    .text(service.metrics.render(), contentType: "text/plain; version=0.0.4; charset=utf-8")
                }
            )
        case "/openapi.yaml":
            return (
                "openapi",
                only(Self.getHead, request) {
                    HTTPResponse(status: 200, headers: [("Content-Type", "application/yaml; charset=utf-8")], body: openAPIDocument)
                }
            )
        default:
            if path == "/admin" || path.hasPrefix("/admin/") {
                return ("admin", AdminEndpoints(service: service).handle(request))
            }
            return ("not_found", .error(status: 404, code: "not_found", message: "no endpoint at \(path); see /openapi.yaml"))
        }
    }

    /// Answers 405 with `Allow` for a method the endpoint does not take.
    private func only(_ methods: [String], _ request: HTTPRequest, _ body: () -> HTTPResponse) -> HTTPResponse {
        guard methods.contains(request.method) else {
            return .error(
                status: 405, code: "method_not_allowed",
                message: "\(request.method) is not allowed here; use \(methods.joined(separator: " or "))",
                headers: [("Allow", methods.joined(separator: ", "))])
        }
        return body()
    }
}
