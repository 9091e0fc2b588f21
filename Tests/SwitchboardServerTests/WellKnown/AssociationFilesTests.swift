import Foundation
import SwitchboardCore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// `/.well-known/apple-app-site-association` and `/.well-known/assetlinks.json` over a real
/// socket, checked against Apple's and Android's formats.
@Suite("association files", .blockingIO)
struct AssociationFilesTests {
    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")
    static let settings = """
        schemes: [myapp]
        domains: [shop.example.com, www.shop.example.com]
        apps:
          ios: [{appID: "ABCDE12345.com.example.shop"}, {appID: "ABCDE12345.com.example.shop.beta"}]
          android: [{package: com.example.shop, sha256: ["\(fingerprint.lowercased())"]}]
        """
    static let routes = [
        "shop": """
        module: shop
        routes:
          - id: product
            pattern: /product/:id<int>
          - id: search
            pattern: /search(/:q)
          - id: docs
            pattern: /docs/*rest
          - id: account
            pattern: /account/*
            app: false
          - id: campaign
            pattern: https://www.shop.example.com/c/:name
          - id: partner
            pattern: https://partner.example.com/p/:id
          - id: native
            pattern: myapp://native/:x
        """
    ]

    static func get(_ server: AppsTestServer, _ path: String, host: String) throws -> HTTPTestResponse {
        let client = try HTTPTestClient(port: server.port)
        try client.send("GET \(path) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        return try client.readResponse()
    }

    /// Checks Apple's applinks structure and returns the details.
    static func appleDetails(_ response: HTTPTestResponse) throws -> [[String: Any]] {
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(response.header("Location") == nil)
        let root = try response.object()
        #expect(Set(root.keys) == ["applinks"])
        let applinks = try #require(root["applinks"] as? [String: Any])
        let details = try #require(applinks["details"] as? [[String: Any]])
        for detail in details {
            let appIDs = try #require(detail["appIDs"] as? [String])
            #expect(!appIDs.isEmpty)
            #expect(appIDs.allSatisfy { $0.split(separator: ".").count >= 2 })
            let components = try #require(detail["components"] as? [[String: Any]])
            for component in components {
                let path = try #require(component["/"] as? String)
                #expect(path.hasPrefix("/"))
                #expect(Set(component.keys).isSubset(of: ["/", "exclude", "comment", "?", "#"]))
                if let exclude = component["exclude"] { #expect(exclude as? Bool == true) }
            }
        }
        return details
    }

    @Test("AASA per Host: path-only routes for domains, host routes for their host, app: false excluded")
    func apple() throws {
        let server = try AppsTestServer(settings: Self.settings, routes: Self.routes)
        let shop = try Self.appleDetails(try Self.get(server, "/.well-known/apple-app-site-association", host: "shop.example.com"))
        #expect(shop.count == 1)
        #expect(shop[0]["appIDs"] as? [String] == ["ABCDE12345.com.example.shop", "ABCDE12345.com.example.shop.beta"])
        let components = try #require(shop[0]["components"] as? [[String: Any]])
        #expect(
            components.map { $0["/"] as? String } == [
                "/account/?*/?*", "/docs/?*/?*", "/?*/?*/?*", "/product/?*", "/search/?*", "/account/?*", "/docs/?*", "/?*/?*", "/search",
                "/search/",
            ])
        #expect(components.map { $0["exclude"] as? Bool } == [true, nil, true, nil, nil, true, nil, true, nil, nil])

        let www = try Self.appleDetails(try Self.get(server, "/.well-known/apple-app-site-association", host: "WWW.shop.example.com:8443"))
        let wwwPaths = try #require(www[0]["components"] as? [[String: Any]]).map { $0["/"] as? String }
        #expect(
            wwwPaths == [
                "/account/?*/?*", "/docs/?*/?*", "/?*/?*/?*", "/product/?*", "/c/?*", "/search/?*", "/account/?*", "/docs/?*", "/?*/?*",
                "/search", "/search/",
            ])

        let partner = try Self.appleDetails(try Self.get(server, "/.well-known/apple-app-site-association", host: "partner.example.com"))
        #expect(try #require(partner[0]["components"] as? [[String: Any]]).map { $0["/"] as? String } == ["/?*/?*/?*", "/p/?*"])

        let other = try Self.appleDetails(try Self.get(server, "/.well-known/apple-app-site-association", host: "evil.example.com"))
        #expect(try #require(other[0]["components"] as? [[String: Any]]).isEmpty)
    }

    @Test("assetlinks.json follows the Digital Asset Links format, with the Host's dynamic rules")
    func android() throws {
        let server = try AppsTestServer(settings: Self.settings, routes: Self.routes)
        let response = try Self.get(server, "/.well-known/assetlinks.json", host: "shop.example.com")
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
        let statements = try #require(try response.parsedJSON() as? [[String: Any]])
        #expect(statements.count == 1)
        let statement = statements[0]
        #expect(Set(statement.keys) == ["relation", "target", "relation_extensions"])
        let extensions = try #require(statement["relation_extensions"] as? [String: [String: Any]])
        let rules = try #require(
            extensions["delegate_permission/common.handle_all_urls"]?["dynamic_app_link_components"] as? [[String: Any]])
        #expect(rules.map { $0["/"] as? String }.first == "/account/?*/?*")
        #expect(rules.map { $0["exclude"] as? Bool }.first == true)
        #expect(rules.allSatisfy { Set($0.keys).isSubset(of: ["/", "exclude", "comments"]) })
        #expect(statement["relation"] as? [String] == ["delegate_permission/common.handle_all_urls"])
        let target = try #require(statement["target"] as? [String: Any])
        #expect(target["namespace"] as? String == "android_app")
        #expect(target["package_name"] as? String == "com.example.shop")
        let fingerprints = try #require(target["sha256_cert_fingerprints"] as? [String])
        #expect(fingerprints == [Self.fingerprint])
        #expect(fingerprints.allSatisfy { $0.range(of: "^([0-9A-F]{2}:){31}[0-9A-F]{2}$", options: .regularExpression) != nil })
    }

    @Test("no auth, no redirect; without apps the files are valid and empty; POST is 405")
    func emptyAndMethods() throws {
        let server = try AppsTestServer(settings: "domains: [shop.example.com]", routes: Self.routes)
        let apple = try Self.appleDetails(try Self.get(server, "/.well-known/apple-app-site-association", host: "shop.example.com"))
        #expect(apple.isEmpty)
        let android = try Self.get(server, "/.well-known/assetlinks.json", host: "shop.example.com")
        #expect(android.status == 200)
        #expect(android.text == "[]")
        let withApp = try AppsTestServer(
            settings: "domains: [shop.example.com]\napps: {android: [{package: a.b, sha256: [\"\(Self.fingerprint)\"]}]}",
            routes: Self.routes)
        let unknownHost = try #require(
            try Self.get(withApp, "/.well-known/assetlinks.json", host: "evil.example.com").parsedJSON() as? [[String: Any]])
        let extensions = try #require(unknownHost.first?["relation_extensions"] as? [String: [String: Any]])
        let rules = try #require(
            extensions["delegate_permission/common.handle_all_urls"]?["dynamic_app_link_components"] as? [[String: Any]])
        #expect(rules.map { $0["/"] as? String } == ["*"], "a host with no route: everything excluded")
        let post = try server.request("POST", "/.well-known/assetlinks.json", body: [])
        #expect(post.status == 405)
    }

    @Test(
        "bad apps config is refused at load",
        arguments: [
            "apps: {ios: [{appID: nodot}]}", "apps: {ios: [{appId: A.b}]}", "apps: {android: [{package: a.b, sha256: [AA:BB]}]}",
            "apps: {android: [{package: a.b, sha256: []}]}", "apps: {android: [{package: a.b}]}", "apps: {windows: []}",
        ])
    func badConfig(yaml: String) throws {
        let directory = try TemporaryDirectory()
        try directory.write("switchboard.yaml", yaml + "\n")
        #expect(throws: ConfigIssues.self) { try ConfigDirectory.load(from: directory.path) }
    }

    @Test("route files accept app: false; unknown keys are still refused")
    func routeKey() throws {
        let definition = try JSONDecoder().decode(RouteDefinition.self, from: Data(#"{"id":"a","pattern":"/a","app":false}"#.utf8))
        #expect(definition.route(module: "m").app == false)
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(RouteDefinition.self, from: Data(#"{"id":"a","pattern":"/a","apps":false}"#.utf8))
        }
    }
}
