import Logging
import Synchronization

/// A `LogHandler` that keeps every record, so tests can look at what the server logged.
struct CollectingLogHandler: LogHandler {
    /// One log record.
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    /// The shared store the handler appends to.
    final class Store: Sendable {
        private let records = Mutex<[Record]>([])

        func append(_ record: Record) { records.withLock { $0.append(record) } }

        /// Everything logged so far.
        var all: [Record] { records.withLock { $0 } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.append(
            Record(
                level: event.level, message: "\(event.message)",
                metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
    }

    /// A logger writing into a new store.
    static func logger(label: String = "switchboard.test") -> (Logger, Store) {
        let store = Store()
        return (Logger(label: label) { _ in CollectingLogHandler(store: store) }, store)
    }
}
