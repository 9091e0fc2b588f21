import Testing

@testable import SwitchboardServer

/// The `traceparent` parser against the W3C Trace Context rules.
@Suite("traceparent")
struct TraceParentTests {
    static let trace = "4bf92f3577b34da6a3ce929d0e0e4736"

    @Test(
        "valid headers give their trace id; malformed ones give none",
        arguments: [
            ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", trace),
            ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", trace),
            // A later version may carry more fields after a dash.
            ("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", trace),
            ("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", trace),
            ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", nil),
            ("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x", nil),
            ("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", nil),
            ("00-00000000000000000000000000000000-00f067aa0ba902b7-01", nil),
            ("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", nil),
            ("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", nil),
            ("00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01", nil),
            ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g", nil),
            ("00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", nil),
            ("", nil),
        ] as [(String, String?)])
    func parse(header: String, expected: String?) {
        #expect(TraceParent.traceID(in: header) == expected, "\(header)")
    }
}
