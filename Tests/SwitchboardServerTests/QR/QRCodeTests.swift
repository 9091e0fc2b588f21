import Foundation
import SwitchboardCore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// `GET /qr` over a real socket: the PNG decodes, with a real decoder (`zbarimg`, Debian's
/// `zbar-tools`), to the `/open` link on `public_url`; the SVG has the same modules; bad input
/// is a `400`. Without `zbarimg` the decoding tests fail in CI and are skipped elsewhere.
@Suite("QR codes", .blockingIO)
struct QRCodeTests {
    /// `zbarimg` on `PATH`, or `nil`.
    static let zbarimg: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/zbarimg" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" } ?? false }

    static let settings = """
        domains: [shop.example.com]
        public_url: "https://go.example.com/"
        """
    static let routes = ["shop": "module: shop\nroutes:\n  - id: product\n    pattern: /product/:id\n"]

    /// What `zbarimg` reads in an image file.
    static func decode(_ bytes: [UInt8], suffix: String) throws -> String? {
        guard let zbarimg else {
            #expect(!isCI, "zbarimg is missing: scripts/install-test-deps.sh installs zbar-tools")
            return nil
        }
        let directory = try TemporaryDirectory()
        let file = "\(directory.path)/code.\(suffix)"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let (status, output) = try Subprocess.run(zbarimg, ["--quiet", "--raw", file])
        #expect(status == 0, "\(output)")
        // Standard error comes along (ImageMagick may complain of a missing D-Bus): the
        // symbol's text is the line that is a URL.
        return output.split(separator: "\n").first { $0.hasPrefix("https://") }.map(String.init)
    }

    @Test(
        "the PNG decodes to the /open link on public_url, at every level and size",
        arguments: [("M", 256), ("L", 128), ("H", 600), ("Q", 2048)])
    func png(level: String, size: Int) throws {
        let server = try AppsTestServer(settings: Self.settings, routes: Self.routes)
        let url = "https://shop.example.com/product/42?ref=qr&x=é"
        let response = try server.request("GET", "/qr?url=\(AppsTestServer.queryEncoded(url))&ec=\(level)&size=\(size)")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/png")
        #expect(Array(response.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let expected = "https://go.example.com/open?url=https%3A%2F%2Fshop.example.com%2Fproduct%2F42%3Fref%3Dqr%26x%3D%C3%A9"
        if Self.zbarimg != nil || Self.isCI { #expect(try Self.decode(response.body, suffix: "png") == expected) }
        let width = response.body[16..<20].reduce(0) { $0 << 8 | Int($1) }
        #expect(width <= size && width > size / 2)
    }

    @Test("the SVG draws the same modules as the PNG")
    func svg() throws {
        let server = try AppsTestServer(settings: Self.settings, routes: Self.routes)
        let response = try server.request("GET", "/qr?url=myapp%3A%2F%2Fp%2F1&format=svg&size=300")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/svg+xml")
        let text = response.text
        #expect(text.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        let code = try QRCode(QREndpoint.openLink(base: "https://go.example.com/", url: "myapp://p/1"), correction: .medium)
        let drawn = text.components(separatedBy: "h").dropFirst().reduce(0) { $0 + (Int($1.prefix { $0.isNumber }) ?? 0) }
        #expect(drawn == code.modules.filter { $0 }.count)
        #expect(text.contains("width=\"\(300 / code.sideModules * code.sideModules)\""))
    }

    @Test(
        "bad input is a 400 naming the parameter; without public_url a 404",
        arguments: [
            ("/qr", "invalid_url"), ("/qr?url=not%20a%20url", "invalid_url"), ("/qr?url=relative/path", "invalid_url"),
            ("/qr?url=https%3A%2F%2Fa.b%2F&size=4096", "invalid_parameter"), ("/qr?url=https%3A%2F%2Fa.b%2F&size=0", "invalid_parameter"),
            ("/qr?url=https%3A%2F%2Fa.b%2F&size=big", "invalid_parameter"), ("/qr?url=https%3A%2F%2Fa.b%2F&ec=X", "invalid_parameter"),
            ("/qr?url=https%3A%2F%2Fa.b%2F&format=gif", "invalid_parameter"), ("/qr?url=a%3Ab&url=c%3Ad", "invalid_parameter"),
        ])
    func badInput(target: String, code: String) throws {
        let server = try AppsTestServer(settings: Self.settings, routes: Self.routes)
        let response = try server.request("GET", target)
        #expect(response.status == 400)
        #expect((try response.object()["error"] as? [String: Any])?["code"] as? String == code)
    }

    @Test("a link too long for a QR code at the level is a 400; no public_url is a 404")
    func limits() throws {
        let server = try AppsTestServer(settings: Self.settings, routes: Self.routes)
        let long = "https://shop.example.com/" + String(repeating: "a", count: 1500)
        let response = try server.request("GET", "/qr?url=\(AppsTestServer.queryEncoded(long))&ec=H")
        #expect(response.status == 400)
        let tooLong = "https://shop.example.com/" + String(repeating: "a", count: 2100)
        #expect(try server.request("GET", "/qr?url=\(AppsTestServer.queryEncoded(tooLong))&ec=L").status == 400)
        let bare = try AppsTestServer(settings: "domains: [shop.example.com]", routes: Self.routes)
        #expect(try bare.request("GET", "/qr?url=https%3A%2F%2Fa.b%2F").status == 404)
    }
}
