import Logging
import Synchronization

/// Where a PostgreSQL connection's notices and warnings go: the logger attached with
/// ``attach(_:)``, each as one record with its severity and SQLSTATE.
///
/// libpq would print them raw on stderr. A notice that arrives before a logger is attached
/// (only while the store starts) is dropped; the store reports its own failures as errors.
package final class PostgresNoticeSink: Sendable {
    private let logger = Mutex<Logger?>(nil)

    /// A sink that drops notices until ``attach(_:)`` is called.
    package init() {}

    /// A sink that logs to `logger`.
    package init(logger: Logger) {
        self.logger.withLock { $0 = logger }
    }

    /// Logs every notice from now on to `logger`.
    package func attach(_ logger: Logger) {
        self.logger.withLock { $0 = logger }
    }

    /// Logs one notice: `WARNING` and above as warnings, the rest as notices.
    func receive(severity: String, sqlState: String?, message: String) {
        guard let logger = logger.withLock({ $0 }) else { return }
        var metadata: Logger.Metadata = ["severity": "\(severity)"]
        if let sqlState { metadata["sqlstate"] = "\(sqlState)" }
        let level: Logger.Level = ["WARNING", "ERROR", "FATAL", "PANIC"].contains(severity) ? .warning : .notice
        logger.log(level: level, "PostgreSQL: \(message)", metadata: metadata)
    }
}
