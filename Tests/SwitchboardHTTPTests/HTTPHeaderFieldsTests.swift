import SwitchboardHTTP
import Testing

/// A request's fields kept as bytes in one buffer read back as they went in: every field, in
/// order, repeated ones each time, names found without case.
@Suite("Header fields in one buffer")
struct HTTPHeaderFieldsTests {
    static let appFields: [HTTPRequest.Header] = [
        ("Host", "127.0.0.1:8080"),
        ("User-Agent", "ShopApp/5.12.3 (iPhone; iOS 17.4.1; Scale/3.00) Alamofire/5.8.1"),
        ("Accept", "application/json, text/plain, */*"),
        ("X-App-Platform", "ios"),
        ("x-app-platform", "android"),
        ("X-Empty", ""),
        ("X-Latin", "caf\u{E9} \u{1F600}"),
    ]

    @Test("every field comes back in order, with its name's case")
    func roundTrip() {
        let fields = HTTPHeaderFields(Self.appFields)
        #expect(fields.count == Self.appFields.count)
        #expect(fields.all.map(\.name) == Self.appFields.map(\.name))
        #expect(fields.all.map(\.value) == Self.appFields.map(\.value))
        #expect(fields.byteCount == Self.appFields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count })
        #expect(HTTPHeaderFields().all.isEmpty)
        #expect(HTTPHeaderFields().count == 0)
    }

    @Test("a name is found without case; the first of repeated fields, or all of them")
    func lookups() {
        let request = HTTPRequest(method: "GET", path: "/", headers: Self.appFields)
        #expect(request.header("x-APP-platform") == "ios")
        #expect(request.headers(named: "X-App-Platform") == ["ios", "android"])
        #expect(request.header("X-Empty") == "")
        #expect(request.header("X-Latin") == "caf\u{E9} \u{1F600}")
        #expect(request.header("User-Agent")?.hasPrefix("ShopApp/5.12.3") == true)
        // Neither a prefix nor a longer name matches.
        #expect(request.header("X-App") == nil)
        #expect(request.header("X-App-Platforms") == nil)
        #expect(request.header("Hos") == nil)
        #expect(request.headers(named: "X-Missing").isEmpty)
        let hasEmpty = request.fields.contains(named: "x-empty")
        let hasMissing = request.fields.contains(named: "X-Missing")
        #expect(hasEmpty && !hasMissing)
    }

    @Test("a value longer than 65,535 bytes and the field after it")
    func longValue() {
        let long = String(repeating: "v", count: 70_000)
        let fields = HTTPHeaderFields([("X-Long", long), ("X-After", "1")])
        let sameValue = fields.first(named: "x-long") == long
        #expect(sameValue)
        #expect(fields.first(named: "X-After") == "1")
        #expect(fields.byteCount == 6 + 70_000 + 7 + 1)
    }

    @Test("fields set as a list replace the ones before")
    func settingTheList() {
        var request = HTTPRequest(method: "GET", path: "/", headers: Self.appFields)
        request.headers = [("Origin", "https://a.example")]
        #expect(request.fields.count == 1)
        #expect(request.header("origin") == "https://a.example")
        #expect(request.header("Host") == nil)
        var fields = HTTPHeaderFields()
        fields.append(name: "A", value: "1")
        fields.append(name: "B", value: "2")
        #expect(fields.all.map(\.value) == ["1", "2"])
    }
}
