import SwitchboardCore
import SwitchboardHTTP
import Synchronization

/// A bounded sample of the requests `GET /resolve` answered recently, for
/// `POST /admin/preview` to replay a change against (design.md §9, README "Traffic sample").
///
/// One request in `every` is taken (``SampleTicker``: an atomic add per request, no lock);
/// only a taken request is redacted (``SampleRedaction``) and appended, under a lock, to a
/// ring of the most recent ones bounded in entries and bytes (``TrafficSampleRing``).
package final class TrafficSample: Sendable {
    /// `nil` while the sample is off (`traffic_sample.urls: 0`).
    private let ticker: SampleTicker?
    private let redaction: SampleRedaction
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
        keep(url, platform: context.platform, appVersion: context.appVersion?.description)
    }

    /// Offers a request answered from the resolve cache: its query is parsed only when the
    /// request is taken.
    @inline(__always)
    func offer(_ request: HTTPRequest) {
        guard let ticker, ticker.tick() else { return }
        guard let query = try? ParsedURL.queryItems(ofRawQuery: request.query ?? ""),
            let url = query.last(where: { $0.name == "url" })?.value, !url.isEmpty
        else { return }
        let context = RequestContext(request: request, query: query, now: 0)
        keep(url, platform: context.platform, appVersion: context.appVersion?.description)
    }

    /// Keeps a taken request, redacted (the redaction runs outside the lock).
    private func keep(_ url: String, platform: String?, appVersion: String?) {
        let sampled = SampledRequest(url: redaction.redact(url), platform: platform, appVersion: appVersion)
        ring.withLock { $0.append(sampled) }
    }

    /// Keeps `request` as it is, for tests and tools that fill a sample by hand.
    package func append(_ request: SampledRequest) {
        ring.withLock { $0.append(request) }
    }

    /// The kept requests, oldest first.
    package var requests: [SampledRequest] {
        ring.withLock { $0.requests }
    }

    /// What the sample holds: entries, bytes, and requests taken since the start.
    package var size: (urls: Int, bytes: Int, taken: Int) {
        ring.withLock { ($0.count, $0.bytes, $0.appended) }
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
