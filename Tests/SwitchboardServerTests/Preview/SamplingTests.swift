import Foundation
import SwitchboardCore
import SwitchboardHTTP
import Testing
import Yams

@testable import SwitchboardServer

/// The traffic sample on its own: what redaction keeps, the bounds, the settings.
@Suite("Traffic sample")
struct SamplingTests {
    @Test(
        "redaction keeps routing shape and drops secrets, ids and personal data",
        arguments: [
            // Plain values and the path stay.
            ("shopapp://product/42?tab=reviews", "shopapp://product/42?tab=reviews"),
            ("https://shop.example.com/search/red%20shoes", "https://shop.example.com/search/red%20shoes"),
            // Campaign tags and click ids lose their values, keeping their shape.
            (
                "shopapp://venue/double11?utm_source=Mail&utm_campaign=d11-2026",
                "shopapp://venue/double11?utm_source=Xxxx&utm_campaign=x00-0000"
            ),
            ("https://shop.example.com/p?gclid=Cj0KCQ&fbclid=IwAR2&cid=77", "https://shop.example.com/p?gclid=Xx0XXX&fbclid=XxXX0&cid=00"),
            // Keys ending in id, any case.
            ("https://shop.example.com/item.html?ref=mail&id=42", "https://shop.example.com/item.html?ref=mail&id=00"),
            ("shopapp://cart?userId=u-981&device_id=AB12", "shopapp://cart?userId=x-000&device_id=XX00"),
            // Secrets, whatever their case or separator.
            (
                "shopapp://login?token=abc.DEF&X-Api-Key=k1&sig=ff&session=s&code=9",
                "shopapp://login?token=xxx.XXX&X-Api-Key=x0&sig=xx&session=x&code=0"
            ),
            // Long values and e-mail addresses, whatever their key.
            ("shopapp://share?to=ann%40example.com", "shopapp://share?to=xxx_xxxxxxx.xxx"),
            ("shopapp://share?to=ann@example.com", "shopapp://share?to=xxx@xxxxxxx.xxx"),
            (
                "shopapp://share?next=https%3A%2F%2Fexample.com%2Fa%2Fb%2Fc",
                "shopapp://share?next=xxxxx___xxxxxxx.xxx_x_x_x"
            ),
            // Non-ASCII text in a redacted value.
            ("shopapp://s?utm_term=%E9%9E%8B", "shopapp://s?utm_term=___"),
            ("shopapp://s?utm_term=鞋子&q=鞋", "shopapp://s?utm_term=__&q=鞋"),
            // User info goes; fragments are redacted like queries; bare items are values.
            ("https://user:secret@shop.example.com/cart#access_token=abc&x=1", "https://shop.example.com/cart#access_token=xxx&x=1"),
            ("shopapp://help#section-2", "shopapp://help#section-2"),
            ("shopapp://a?debug&&b=", "shopapp://a?debug&&b="),
        ])
    func redaction(url: String, kept: String) {
        #expect(SampleRedaction().redact(url) == kept)
    }

    @Test("keep_query_values keeps an identifying key's value, never a secret's")
    func allowList() {
        let redaction = SampleRedaction(keepQueryValues: ["utm_campaign", "ID"])
        #expect(
            redaction.redact("shopapp://p?utm_campaign=double11&id=42&utm_source=mail&token=t1")
                == "shopapp://p?utm_campaign=double11&id=42&utm_source=xxxx&token=x0")
        #expect(SampleRedaction.isSecret("api_key") && SampleRedaction.isSecret("AccessToken") && SampleRedaction.isSecret("sig"))
        #expect(!SampleRedaction.isSecret("keyword") && !SampleRedaction.isSecret("tab") && !SampleRedaction.isSecret("zipcode"))
    }

    @Test("the ring keeps the newest entries within its entry and byte bounds")
    func ringBounds() {
        var ring = TrafficSampleRing(capacity: 3, maxBytes: 10_000)
        for index in 0..<5 { ring.append(SampledRequest(url: "shopapp://product/\(index)")) }
        #expect(ring.requests.map(\.url) == ["shopapp://product/2", "shopapp://product/3", "shopapp://product/4"])
        #expect(ring.count == 3 && ring.appended == 5)
        #expect(ring.bytes == 3 * ("shopapp://product/0".utf8.count + TrafficSampleRing.entryOverheadBytes))

        // Bytes bound first: room for two entries of 100 bytes of text.
        let entry = 100 + TrafficSampleRing.entryOverheadBytes
        var bounded = TrafficSampleRing(capacity: 1000, maxBytes: 2 * entry + 10)
        for index in 0..<4 {
            bounded.append(SampledRequest(url: "shopapp://" + String(repeating: "\(index)", count: 90)))
        }
        #expect(bounded.count == 2 && bounded.bytes == 2 * entry)
        #expect(bounded.requests.map { $0.url.last } == ["2", "3"])
        // A larger entry drops as many of the oldest as it needs.
        bounded.append(SampledRequest(url: "shopapp://" + String(repeating: "x", count: 150)))
        #expect(bounded.count == 1 && bounded.requests.first?.url.hasSuffix("xxx") == true)
        // One larger than the whole budget is not kept and drops nothing.
        bounded.append(SampledRequest(url: String(repeating: "y", count: 1000)))
        #expect(bounded.count == 1)
    }

    @Test("one request in `every` is taken, redacted, with its platform and app version")
    func every() {
        var settings = ServerSettings.TrafficSampleSettings()
        settings.every = 4
        let sample = TrafficSample(settings: settings)
        for index in 0..<100 {
            sample.offer("shopapp://product/\(index)?utm_source=x", RequestContext(platform: "ios", appVersion: "5.2.0"))
        }
        let requests = sample.requests
        #expect(requests.count == 25)
        #expect(requests.allSatisfy { $0.url.hasSuffix("?utm_source=x") && $0.platform == "ios" && $0.appVersion == "5.2.0" })

        settings.every = 1
        let cached = TrafficSample(settings: settings)
        cached.offer(
            HTTPRequest(
                method: "GET", path: "/resolve", query: "url=shopapp%3A%2F%2Fcart%3Ftoken%3Dabc&platform=android",
                headers: [("X-App-Version", "6.0.0")]))
        #expect(cached.requests == [SampledRequest(url: "shopapp://cart?token=xxx", platform: "android", appVersion: "6.0.0")])
    }

    @Test("taken requests are kept in batches: a read sees all of them, in order, from every thread")
    func batches() async {
        var settings = ServerSettings.TrafficSampleSettings()
        settings.every = 1
        let sample = TrafficSample(settings: settings)
        // Across several full batches and a partial one, from both kinds of offer.
        let count = PendingSamples.batchCount * 3 + 5
        for index in 0..<count {
            if index.isMultiple(of: 2) {
                sample.offer("shopapp://product/\(index)", RequestContext(platform: "ios"))
            } else {
                sample.offer(
                    HTTPRequest(method: "GET", path: "/resolve", query: "url=shopapp%3A%2F%2Fproduct%2F\(index)"))
            }
        }
        #expect(sample.requests.map(\.url) == (0..<count).map { "shopapp://product/\($0)" })
        #expect(sample.requests.map(\.platform) == (0..<count).map { $0.isMultiple(of: 2) ? "ios" : nil })
        #expect(sample.size.taken == count)

        // Four threads at once: none is lost, none is kept twice.
        let shared = TrafficSample(settings: settings)
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    for index in 0..<500 { shared.offer("shopapp://t\(thread)/\(index)", RequestContext()) }
                }
            }
        }
        #expect(shared.size.taken == 2_000)
        #expect(Set(shared.requests.map(\.url)).count == 2_000)
    }

    @Test("a batch is full at its entry count or its bytes, whichever comes first")
    func batchBounds() {
        var pending = PendingSamples()
        for index in 1..<PendingSamples.batchCount {
            #expect(pending.put(.resolved(url: "u\(index)", platform: nil, appVersion: nil)) == nil)
        }
        #expect(pending.put(.resolved(url: "last", platform: nil, appVersion: nil))?.count == PendingSamples.batchCount)
        #expect(pending.takeAll().isEmpty)

        let long = String(repeating: "x", count: PendingSamples.batchBytes / 2)
        #expect(pending.put(.resolved(url: long, platform: nil, appVersion: nil)) == nil)
        #expect(pending.put(.request(HTTPRequest(method: "GET", path: "/resolve", query: "url=" + long)))?.count == 2)
    }

    @Test("traffic_sample: 0 turns it off; 0 URLs and bytes in the metrics")
    func off() {
        var settings = ServerSettings.TrafficSampleSettings()
        settings.urls = 0
        let sample = TrafficSample(settings: settings)
        sample.offer("shopapp://cart", RequestContext())
        #expect(sample.requests.isEmpty)
        var text = ""
        sample.renderMetrics(into: &text)
        #expect(text.contains("switchboard_traffic_sample_urls 0\n") && text.contains("switchboard_traffic_sample_bytes 0\n"))
    }

    @Test("settings: defaults, bounds, unknown keys and secrets in keep_query_values are load errors")
    func settings() throws {
        let defaults = try YAMLDecoder().decode(ServerSettings.self, from: "listen: 127.0.0.1:0\n").trafficSample
        #expect(defaults.urls == 10_000 && defaults.maxBytes == 4 * 1024 * 1024 && defaults.every == 16)
        #expect(defaults.keepQueryValues.isEmpty)
        let set = try YAMLDecoder().decode(
            ServerSettings.self, from: "traffic_sample: { urls: 50, max_bytes: 65536, every: 1, keep_query_values: [tab] }\n"
        ).trafficSample
        #expect(set.urls == 50 && set.maxBytes == 65536 && set.every == 1 && set.keepQueryValues == ["tab"])
        for (yaml, named) in [
            ("traffic_sample: { urls: -1 }", "traffic_sample.urls"),
            ("traffic_sample: { every: 0 }", "traffic_sample.every"),
            ("traffic_sample: { max_bytes: 10 }", "traffic_sample.max_bytes"),
            ("traffic_sample: { size: 10 }", "size"),
            ("traffic_sample: { keep_query_values: [auth_token] }", "auth_token"),
        ] {
            #expect {
                try YAMLDecoder().decode(ServerSettings.self, from: yaml + "\n")
            } throws: { error in
                "\(error)".contains(named)
            }
        }
    }
}
