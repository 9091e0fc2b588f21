import SwitchboardCore

/// One request of the traffic sample: the URL as ``SampleRedaction`` keeps it, and the asking
/// app's platform and version. The device id is not kept (it identifies a person): a
/// percentage rollout sees a sampled request as one without a device.
package struct SampledRequest: Sendable, Hashable {
    /// The URL, redacted.
    package let url: String
    /// `ios`, `android` or `web`, when the request said.
    package let platform: String?
    /// The app version, when the request gave a valid one.
    package let appVersion: String?

    package init(url: String, platform: String? = nil, appVersion: String? = nil) {
        self.url = url
        self.platform = platform
        self.appVersion = appVersion
    }

    /// The context to resolve it with, at `now` (seconds since the Unix epoch).
    package func context(now: Double?) -> RequestContext {
        RequestContext(platform: platform, appVersion: appVersion, now: now)
    }

    /// What it costs the sample: its text plus ``TrafficSampleRing/entryOverheadBytes``.
    var bytes: Int {
        url.utf8.count + (platform?.utf8.count ?? 0) + (appVersion?.utf8.count ?? 0) + TrafficSampleRing.entryOverheadBytes
    }
}
