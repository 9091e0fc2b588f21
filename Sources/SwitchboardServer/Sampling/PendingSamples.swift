import SwitchboardHTTP

/// The requests the traffic sample took and has not kept yet, as they came: a batch is parsed
/// and redacted at once (``TrafficSample``). Bounded in entries and in bytes: long URLs make
/// a batch with fewer entries.
struct PendingSamples {
    /// A taken request, as it came.
    enum Taken {
        /// A `GET /resolve` request whose query holds the URL.
        case request(HTTPRequest)
        /// A URL already read from its request, with the app that asked.
        case resolved(url: String, platform: String?, appVersion: String?)

        /// The bytes of the text it holds, to bound a batch.
        var bytes: Int {
            switch self {
            case .request(let request):
                return (request.query?.utf8.count ?? 0) + request.fields.byteCount
            case .resolved(let url, let platform, let appVersion):
                return url.utf8.count + (platform?.utf8.count ?? 0) + (appVersion?.utf8.count ?? 0)
            }
        }
    }

    /// Taken requests that make a batch.
    static let batchCount = 32
    /// Bytes of taken requests that make a batch, whatever their number.
    static let batchBytes = 64 * 1024

    private var waiting: [Taken] = []
    private var bytes = 0

    /// Puts `taken` aside; returns the batch, and empties it, once it is full.
    mutating func put(_ taken: Taken) -> [Taken]? {
        if waiting.isEmpty { waiting.reserveCapacity(Self.batchCount) }
        waiting.append(taken)
        bytes += taken.bytes
        guard waiting.count >= Self.batchCount || bytes >= Self.batchBytes else { return nil }
        return takeAll()
    }

    /// Everything put aside, oldest first; leaves none.
    mutating func takeAll() -> [Taken] {
        defer {
            waiting = []
            bytes = 0
        }
        return waiting
    }
}
