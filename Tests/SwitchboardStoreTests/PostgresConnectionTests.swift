import Foundation
import SwitchboardStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The libpq connection against a server that stops answering: a frozen PostgreSQL (a hung
/// VM, a network black hole) keeps its TCP connections open and says nothing.
@Suite("PostgreSQL connection", .timeLimit(.minutes(1)))
struct PostgresConnectionTests {
    @Test("a statement the server never answers fails at the statement timeout and gives the connection up")
    func aStatementTheServerNeverAnswersTimesOut() throws {
        let server = try SilentPostgresServer()
        let connection = try PostgresConnection(
            "postgresql://test@127.0.0.1:\(server.port)/test?sslmode=disable", statementTimeout: .milliseconds(300))
        #expect(connection.isConnected)
        let started = ContinuousClock.now
        #expect {
            try connection.execute("SELECT 1")
        } throws: { error in
            let error = try #require(error as? PostgresError)
            return error.isConnectionFailure && error.message.contains("did not answer")
        }
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(300) && waited < .seconds(5), "\(waited)")
        #expect(!connection.isConnected)
        // Given up: the next statement fails at once instead of waiting again.
        let again = ContinuousClock.now
        #expect(throws: PostgresError.self) { try connection.execute("SELECT 1") }
        #expect(ContinuousClock.now - again < .milliseconds(100))
    }
}

/// A server that completes PostgreSQL's startup exchange (trust authentication), then reads
/// whatever it is sent and never answers.
private final class SilentPostgresServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let thread: Thread

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        try #require(bound == 0 && listen(listener, 4) == 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        thread = Thread {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            // The startup message: a length that counts itself, then the protocol and parameters.
            var header = [UInt8](repeating: 0, count: 4)
            guard recv(client, &header, 4, Int32(MSG_WAITALL)) == 4 else { return }
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            var rest = [UInt8](repeating: 0, count: max(0, length - 4))
            _ = recv(client, &rest, rest.count, Int32(MSG_WAITALL))
            // AuthenticationOk, then ReadyForQuery (idle).
            let answer: [UInt8] = [0x52, 0, 0, 0, 8, 0, 0, 0, 0] + [0x5A, 0, 0, 0, 5, 0x49]
            _ = send(client, answer, answer.count, 0)
            var sink = [UInt8](repeating: 0, count: 4096)
            while recv(client, &sink, sink.count, 0) > 0 {}
            close(client)
        }
        thread.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
