import SwitchboardCore
import SwitchboardHTTP
import Synchronization

/// A bounded sample of the requests `GET /resolve` answered recently, for
/// `POST /admin/preview` to replay a change against (design.md §9, docs/impact-preview.md "Traffic sample").
///
/// One request in `every` is taken (``SampleTicker``: an atomic add per request, no lock). A
/// taken request is only put aside as it came (``PendingSamples``; unredacted, in memory only,
/// until its batch is kept). Once ``PendingSamples/batchCount`` are waiting, or when the sample
/// is read, they are parsed, redacted (``SampleRedaction``) and appended, under a lock, to a
/// ring of the most recent ones bounded in entries and bytes (``TrafficSampleRing``).
///
/// Parsing and redacting one request in a batch keeps that code in the caches for the next:
/// one at a time, each taken request met it cold, and on a loaded server it cost more in cache
/// misses than the resolve it sampled (BENCHMARKS.md "Fifth pass").
package final class TrafficSample: Sendable {
    /// `nil` while the sample is off (`traffic_sample.urls: 0`).
    private let ticker: SampleTicker?
    private let redaction: SampleRedaction
    private let pending = Mutex(PendingSamples())
    private let ring: Mutex<TrafficSampleRing>

    /// - Parameter settings: `traffic_sample` of `switchboard.yaml`.
    package init(settings: ServerSettings.TrafficSampleSettings) {
        ticker = settings.isEnabled ? SampleTicker(every: settings.every) : nil
        redaction = SampleRedaction(keepQueryValues: settings.keepQueryValues)
        ring = Mutex(TrafficSampleRing(capacity: settings.urls, maxBytes: settings.maxBytes))
    }

    /// Offers one resolved request: `url` as asked, in `context`. Costs an atomic add unless
    /// the request is taken.
    @inline(__always)
    func offer(_ url: String, _ context: RequestContext) {
        guard let ticker, ticker.tick() else { return }
        put(.resolved(url: url, platform: context.platform, appVersion: context.appVersion?.description))
    }

    /// Offers a `GET /resolve` request as it came: its query is parsed only when the request
    /// is taken, and then with the rest of its batch.
    @inline(__always)
    func offer(_ request: HTTPRequest) {
        guard let ticker, ticker.tick() else { return }
        put(.request(request))
    }

    /// Puts a taken request aside, and keeps the batch when it is full.
    private func put(_ taken: PendingSamples.Taken) {
        let batch = pending.withLock { $0.put(taken) }
        if let batch { keep(batch) }
    }

    /// Parses and redacts `batch` outside the locks, then appends it to the ring in order.
    private func keep(_ batch: [PendingSamples.Taken]) {
        let sampled = batch.compactMap(sampledRequest)
        ring.withLock { ring in
            for request in sampled { ring.append(request) }
        }
    }

    /// A taken request as the sample keeps it; `nil` for a query without a `url` to replay.
    private func sampledRequest(_ taken: PendingSamples.Taken) -> SampledRequest? {
        switch taken {
        case .resolved(let url, let platform, let appVersion):
            return SampledRequest(url: redaction.redact(url), platform: platform, appVersion: appVersion)
        case .request(let request):
            guard let query = try? ParsedURL.queryItems(ofRawQuery: request.query ?? ""),
                let url = query.last(where: { $0.name == "url" })?.value, !url.isEmpty
            else { return nil }
            let context = RequestContext(request: request, query: query, now: 0)
            return SampledRequest(
                url: redaction.redact(url), platform: context.platform, appVersion: context.appVersion?.description)
        }
    }

    /// The ring, after keeping the requests put aside so far: a read sees every taken request
    /// whose answer was sent before it (a batch being kept by a request still being answered
    /// may land just after).
    private func withKeptRing<Result: Sendable>(_ body: (inout sending TrafficSampleRing) -> sending Result) -> Result {
        let batch = pending.withLock { $0.takeAll() }
        if !batch.isEmpty { keep(batch) }
        return ring.withLock(body)
    }

    /// Keeps `request` as it is, for tests and tools that fill a sample by hand.
    package func append(_ request: SampledRequest) {
        withKeptRing { $0.append(request) }
    }

    /// The kept requests, oldest first.
    package var requests: [SampledRequest] {
        withKeptRing { $0.requests }
    }

    /// What the sample holds: entries, bytes, and requests taken since the start.
    package var size: (urls: Int, bytes: Int, taken: Int) {
        withKeptRing { ($0.count, $0.bytes, $0.appended) }
    }

    /// Appends the sample's series to a Prometheus text exposition.
    package func renderMetrics(into out: inout String) {
        let (urls, bytes, taken) = size
        out += "# HELP switchboard_traffic_sample_urls Requests kept in the traffic sample that POST /admin/preview replays.\n"
        out += "# TYPE switchboard_traffic_sample_urls gauge\nswitchboard_traffic_sample_urls \(urls)\n"
        out += "# HELP switchboard_traffic_sample_bytes Memory the traffic sample's requests take (text plus a fixed cost each).\n"
        out += "# TYPE switchboard_traffic_sample_bytes gauge\nswitchboard_traffic_sample_bytes \(bytes)\n"
        out += "# HELP switchboard_traffic_sample_taken_total GET /resolve requests taken into the traffic sample.\n"
        out += "# TYPE switchboard_traffic_sample_taken_total counter\nswitchboard_traffic_sample_taken_total \(taken)\n"
    }
}
