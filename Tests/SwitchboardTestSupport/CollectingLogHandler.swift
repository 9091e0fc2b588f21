import Logging
import Synchronization

/// A `LogHandler` that keeps every record, so tests can look at what the server logged.
package struct CollectingLogHandler: LogHandler {
    /// One log record.
    package struct Record: Sendable {
        package var level: Logger.Level
        package var message: String
        package var metadata: Logger.Metadata
    }

    /// The shared store the handler appends to.
    package final class Store: Sendable {
        private let records = Mutex<[Record]>([])

        package func append(_ record: Record) { records.withLock { $0.append(record) } }

        /// Everything logged so far.
        package var all: [Record] { records.withLock { $0 } }
    }

    package let store: Store
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .trace

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        store.append(
            Record(
                level: event.level, message: "\(event.message)",
                metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
    }

    /// A logger writing into a new store.
    package static func logger(label: String = "switchboard.test") -> (Logger, Store) {
        let store = Store()
        return (Logger(label: label) { _ in CollectingLogHandler(store: store) }, store)
    }
}
