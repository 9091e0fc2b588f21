import Foundation
import SwitchboardHTTP
import Testing

@testable import SwitchboardServer

@Suite("The API's error body")
struct APIErrorTests {
    @Test("the JSON error body has design.md §5's exact shape")
    func errorShape() {
        let response = APIError.badRequest("invalid_url", "bad").response
        #expect(response.status == 400)
        #expect(response.header("content-type") == "application/json; charset=utf-8")
        #expect(
            String(decoding: response.body, as: UTF8.self) == #"{"error":{"code":"invalid_url","message":"bad"}}"#)
    }

    @Test("error messages are escaped so the body stays valid JSON")
    func errorEscaping() throws {
        let message = "quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} ä€😀 \u{2028}"
        let response = APIError(status: 422, code: "x", message: message).response
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: [String: String]]
        #expect(object?["error"]?["message"] == message)
        #expect(object?["error"]?["code"] == "x")
    }

    @Test(
        "every kind of refused admin change has its status",
        arguments: [
            (AdminChangeError.Kind.invalid, 400), (.notFound, 404), (.conflict, 409), (.versionMismatch, 412),
            (.limitExceeded, 422), (.storeUnavailable, 503), (.persistenceFailed, 503),
        ])
    func adminChangeStatuses(kind: AdminChangeError.Kind, status: Int) {
        let error = APIError(AdminChangeError(kind, code: "c", message: "m"))
        #expect(error.status == status)
        #expect(error.code == "c")
    }
}
