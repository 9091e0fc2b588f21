import CLibPQ
import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Why a PostgreSQL call failed: the SQLSTATE when the server sent one, and its message.
package struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// The five-character SQLSTATE (`40001`, `23505`, …), or `nil` for a connection problem.
    package let sqlState: String?
    package let message: String

    /// Whether the connection itself is gone (reconnect and retry later) rather than the
    /// statement being refused.
    package var isConnectionFailure: Bool { sqlState == nil || sqlState?.hasPrefix("08") == true || sqlState == "57P01" }

    package var description: String { sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message }
}

/// One libpq connection. This file owns every unsafe libpq call: NULL results and error
/// statuses become thrown ``PostgresError``s with the server's message.
///
/// Not thread-safe: a connection belongs to one owner at a time (the store guards its
/// connection with a lock; the listener thread has its own).
package final class PostgresConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// Where the server's notices go; libpq holds an unretained pointer to it for as long as
    /// the connection lives, so the connection keeps it.
    private let notices: PostgresNoticeSink

    /// Connects with a `postgres://` URL or a `key=value` connection string.
    ///
    /// - Parameter notices: where the server's notices and warnings are logged (`WARNING:
    ///   terminating connection due to immediate shutdown command`, …), rather than libpq's
    ///   default of printing them raw on stderr.
    package init(
        _ conninfo: String, connectTimeoutSeconds: Int = 3, notices: PostgresNoticeSink = PostgresNoticeSink()
    ) throws(PostgresError) {
        // A bounded connect, so that a replica whose database is down answers quickly.
        var info = conninfo
        if !info.contains("connect_timeout") {
            info +=
                info.contains("://")
                ? (info.contains("?") ? "&" : "?") + "connect_timeout=\(connectTimeoutSeconds)"
                : " connect_timeout=\(connectTimeoutSeconds)"
        }
        guard let handle = PQconnectdb(info) else {
            throw PostgresError(sqlState: nil, message: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.message(handle)
            PQfinish(handle)
            throw PostgresError(sqlState: nil, message: "cannot connect to PostgreSQL: \(message)")
        }
        self.handle = handle
        self.notices = notices
        PQsetNoticeReceiver(handle, postgresNoticeReceiver, Unmanaged.passUnretained(notices).toOpaque())
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection is still up (as far as libpq knows).
    package var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// The result of a statement: its rows (text values, `nil` for SQL NULL) and, for
    /// INSERT/UPDATE/DELETE, how many rows it touched.
    package struct Rows: Sendable {
        package var values: [[String?]]
        package var affected: Int
    }

    /// Runs one statement with `$1`, `$2`… parameters sent separately (never spliced in).
    @discardableResult
    package func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> Rows {
        var cStrings = parameters.map { $0.flatMap { strdup($0) } }
        defer { for pointer in cStrings { free(pointer) } }
        let result: OpaquePointer? = cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
                PQexecParams(handle, sql, Int32(parameters.count), nil, pointers.baseAddress, nil, nil, 0)
            }
        }
        guard let result else {
            throw PostgresError(sqlState: nil, message: Self.message(handle))
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            var rows: [[String?]] = []
            let rowCount = PQntuples(result)
            let columnCount = PQnfields(result)
            rows.reserveCapacity(Int(rowCount))
            for row in 0..<rowCount {
                var values: [String?] = []
                for column in 0..<columnCount {
                    if PQgetisnull(result, row, column) == 1 {
                        values.append(nil)
                    } else if let text = PQgetvalue(result, row, column) {
                        values.append(String(cString: text))
                    } else {
                        values.append(nil)
                    }
                }
                rows.append(values)
            }
            let affected = PQcmdTuples(result).map { Int(String(cString: $0)) ?? 0 } ?? 0
            return Rows(values: rows, affected: affected)
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = PQresultErrorMessage(result).map { String(cString: $0) } ?? "unknown error"
            throw PostgresError(sqlState: state, message: message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Waits up to `timeout` for `NOTIFY` payloads on the channels this connection `LISTEN`s to.
    /// - Returns: the payloads received, possibly none.
    /// - Throws: ``PostgresError`` when the connection is lost.
    package func notifications(waitingUpTo timeout: Duration) throws(PostgresError) -> [String] {
        var payloads = drainNotifications()
        guard payloads.isEmpty else { return payloads }
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw PostgresError(sqlState: nil, message: "the connection has no socket") }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready < 0, errno != EINTR {
            throw PostgresError(sqlState: nil, message: "poll failed: \(String(cString: strerror(errno)))")
        }
        if ready > 0 {
            guard PQconsumeInput(handle) == 1 else {
                throw PostgresError(sqlState: nil, message: "the connection was lost: \(Self.message(handle))")
            }
            payloads = drainNotifications()
        }
        guard isConnected else { throw PostgresError(sqlState: nil, message: "the connection was lost: \(Self.message(handle))") }
        return payloads
    }

    private func drainNotifications() -> [String] {
        var payloads: [String] = []
        while let notification = PQnotifies(handle) {
            payloads.append(notification.pointee.extra.map { String(cString: $0) } ?? "")
            PQfreemem(notification)
        }
        return payloads
    }

    private static func message(_ handle: OpaquePointer) -> String {
        PQerrorMessage(handle).map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "unknown error"
    }
}

/// libpq's notice callback: hands the notice to the ``PostgresNoticeSink`` the connection
/// registered as `context`. A top-level C-convention function, not a closure: libpq keeps a
/// plain C function pointer.
private func postgresNoticeReceiver(_ context: UnsafeMutableRawPointer?, _ result: OpaquePointer?) {
    guard let context, let result else { return }
    let sink = Unmanaged<PostgresNoticeSink>.fromOpaque(context).takeUnretainedValue()
    let field = { (code: Character) -> String? in
        PQresultErrorField(result, Int32(code.asciiValue ?? 0)).map { String(cString: $0) }
    }
    let message =
        field("M") ?? PQresultErrorMessage(result).map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
    sink.receive(severity: field("V") ?? field("S") ?? "NOTICE", sqlState: field("C"), message: message)
}
