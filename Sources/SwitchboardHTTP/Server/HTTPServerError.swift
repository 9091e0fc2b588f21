/// Why the HTTP layer could not do what was asked: what went wrong, where, and how to fix it.
///
/// ```swift
/// do { try server.start() } catch {
///     logger.critical("\(error)")   // "cannot listen on 127.0.0.1:8080: … (libmicrohttpd: …). Fix: …"
/// }
/// ```
package struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// A stable category to switch on; more may be added.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case invalidListenAddress = "invalid_listen_address"
            case invalidConfiguration = "invalid_configuration"
            case startFailed = "start_failed"
            case invalidState = "invalid_state"
            case responseRejected = "response_rejected"
            case invalidCertificate = "invalid_certificate"
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A `host:port` string that cannot be listened on as written.
        package static let invalidListenAddress = Code(.invalidListenAddress)
        /// A limit or threading setting out of range, or a combination that is unsafe.
        package static let invalidConfiguration = Code(.invalidConfiguration)
        /// libmicrohttpd refused to start (port in use, permission, resources).
        package static let startFailed = Code(.startFailed)
        /// A lifecycle call in the wrong state (e.g. `start()` twice).
        package static let invalidState = Code(.invalidState)
        /// libmicrohttpd refused a response the handler built (bad header, bad status).
        package static let responseRejected = Code(.responseRejected)

        /// A TLS certificate or key that does not parse, or a key that is not the certificate's.
        package static let invalidCertificate = Code(.invalidCertificate)

        /// The code as `snake_case` text.
        package var description: String { value.rawValue }
    }

    /// The category.
    package let code: Code
    /// What went wrong, in one sentence.
    package let message: String
    /// Where: the setting, value or libmicrohttpd call involved.
    package let context: String
    /// How to fix it, when there is something to do.
    package let fix: String?

    /// Creates an error.
    package init(_ code: Code, _ message: String, context: String, fix: String? = nil) {
        self.code = code
        self.message = message
        self.context = context
        self.fix = fix
    }

    /// `message (context). Fix: fix`
    package var description: String {
        var text = "\(message) (\(context))"
        if let fix { text += ". Fix: \(fix)" }
        return text
    }
}
