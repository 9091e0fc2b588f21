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
    /// How long a statement may take, from sending it to its last result.
    private let statementTimeout: Duration
    /// Set when a statement ran out of time: the server may still answer it later, so the
    /// connection cannot be used again and reports itself lost.
    private var abandoned = false

    /// How long a statement may take by default. A frozen server (a hung VM, a network black
    /// hole) keeps the TCP connection open and answers nothing, and neither `connect_timeout`
    /// nor the server's own `statement_timeout` ends the wait; every admin write, reload and
    /// store check would wait behind it. Far above what the store's statements take.
    package static let defaultStatementTimeout = Duration.seconds(5)

    /// Connects with a `postgres://` URL or a `key=value` connection string.
    ///
    /// - Parameter notices: where the server's notices and warnings are logged (`WARNING:
    ///   terminating connection due to immediate shutdown command`, …), rather than libpq's
    ///   default of printing them raw on stderr.
    package init(
        _ conninfo: String, connectTimeoutSeconds: Int = 3, statementTimeout: Duration = defaultStatementTimeout,
        notices: PostgresNoticeSink = PostgresNoticeSink()
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
        // Sending must not block either: a frozen server stops reading once its buffers fill.
        guard PQsetnonblocking(handle, 1) == 0 else {
            let message = Self.message(handle)
            PQfinish(handle)
            throw PostgresError(sqlState: nil, message: "cannot make the connection non-blocking: \(message)")
        }
        self.handle = handle
        self.notices = notices
        self.statementTimeout = statementTimeout
        PQsetNoticeReceiver(handle, postgresNoticeReceiver, Unmanaged.passUnretained(notices).toOpaque())
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection is still up (as far as libpq knows) and usable.
    package var isConnected: Bool { !abandoned && PQstatus(handle) == CONNECTION_OK }

    /// The result of a statement: its rows (text values, `nil` for SQL NULL) and, for
    /// INSERT/UPDATE/DELETE, how many rows it touched.
    package struct Rows: Sendable {
        package var values: [[String?]]
        package var affected: Int
    }

    /// Runs one statement with `$1`, `$2`… parameters sent separately (never spliced in).
    ///
    /// - Throws: ``PostgresError``; a statement that takes longer than the statement timeout
    ///   is a connection failure, and the connection is given up (``isConnected`` is then
    ///   `false`).
    @discardableResult
    package func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> Rows {
        guard !abandoned else {
            throw PostgresError(sqlState: nil, message: "the connection was given up after a statement ran out of time")
        }
        let deadline = ContinuousClock.now + statementTimeout
        var cStrings = parameters.map { $0.flatMap { strdup($0) } }
        defer { for pointer in cStrings { free(pointer) } }
        let sent: Int32 = cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
                PQsendQueryParams(handle, sql, Int32(parameters.count), nil, pointers.baseAddress, nil, nil, 0)
            }
        }
        guard sent == 1 else { throw PostgresError(sqlState: nil, message: Self.message(handle)) }
        let result = try lastResult(before: deadline)
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

    /// Sends what is queued, then reads the statement's results until libpq has no more; the
    /// last one is the statement's (one statement gives one).
    private func lastResult(before deadline: ContinuousClock.Instant) throws(PostgresError) -> OpaquePointer {
        while true {
            let flushed = PQflush(handle)
            if flushed == 0 { break }
            guard flushed > 0 else { throw PostgresError(sqlState: nil, message: Self.message(handle)) }
            // The server may answer (an error) before it has read everything: read as well.
            try wait(for: Int16(POLLOUT | POLLIN), before: deadline)
            guard PQconsumeInput(handle) == 1 else { throw PostgresError(sqlState: nil, message: Self.message(handle)) }
        }
        var last: OpaquePointer?
        while true {
            while PQisBusy(handle) == 1 {
                try wait(for: Int16(POLLIN), before: deadline)
                guard PQconsumeInput(handle) == 1 else {
                    if let last { PQclear(last) }
                    throw PostgresError(sqlState: nil, message: "the connection was lost: \(Self.message(handle))")
                }
            }
            guard let next = PQgetResult(handle) else { break }
            if let last { PQclear(last) }
            last = next
        }
        guard let last else { throw PostgresError(sqlState: nil, message: Self.message(handle)) }
        return last
    }

    /// Waits until the socket is ready for `events`; gives the connection up when `deadline`
    /// passes first.
    private func wait(for events: Int16, before deadline: ContinuousClock.Instant) throws(PostgresError) {
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw PostgresError(sqlState: nil, message: "the connection has no socket") }
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                abandoned = true
                throw PostgresError(
                    sqlState: nil,
                    message: "PostgreSQL did not answer within \(statementTimeout.components.seconds) s; the connection was given up")
            }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: Self.milliseconds(left) + 1))
            if ready > 0 { return }
            if ready < 0, errno != EINTR {
                throw PostgresError(sqlState: nil, message: "poll failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
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
        let ready = poll(&descriptor, 1, Int32(clamping: Self.milliseconds(timeout)))
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
