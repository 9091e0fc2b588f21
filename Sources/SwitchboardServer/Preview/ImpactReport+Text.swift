import Foundation

extension ImpactReport {
    /// The report for a terminal (`switchboard diff`): a summary line, the change, each group
    /// with its examples, then the newly failing and newly unmatched counts.
    ///
    /// ```
    /// 3 URLs (3 distinct): 1 changes (0.2 ms)
    /// change: added double11
    ///
    ///   1  200 product.detail -> 200 promo.landing  rules: double11
    ///      shopapp://product/42
    ///
    /// newly failing: 0
    /// newly unmatched: 0
    /// ```
    package func text(change: ChangeSummary) -> String {
        var out = "\(urls) URLs (\(distinct) distinct): \(changed) change\(changed == 1 ? "s" : "") "
        out += "(\(String(format: "%.1f", elapsedMilliseconds)) ms)\n"
        var parts: [String] = []
        if !change.added.isEmpty { parts.append("added " + change.added.joined(separator: ", ")) }
        if !change.changed.isEmpty { parts.append("changed " + change.changed.joined(separator: ", ")) }
        if !change.removed.isEmpty { parts.append("removed " + change.removed.joined(separator: ", ")) }
        out += "change: " + (parts.isEmpty ? "no rule or route differs" : parts.joined(separator: "; ")) + "\n"
        func describe(_ outcome: Outcome) -> String {
            "\(outcome.status) \(outcome.routeID ?? "(no route)")"
        }
        let width = String(groups.first?.count ?? 0).count
        for group in groups {
            out += "\n"
            let count = String(group.count)
            out += "  " + String(repeating: " ", count: width - count.count) + count
            out += "  \(describe(group.before)) -> \(describe(group.after))"
            if !group.rules.isEmpty { out += "  rules: " + group.rules.joined(separator: ", ") }
            out += "\n"
            for example in group.examples {
                out += String(repeating: " ", count: width + 4) + Self.label(example.request) + "\n"
            }
        }
        for (name, tally) in [("newly failing", newlyFailing), ("newly unmatched", newlyUnmatched)] {
            out += "\n\(name): \(tally.count)\n"
            for example in tally.examples { out += "  " + Self.label(example.request) + "\n" }
        }
        return out
    }

    /// A sampled request on one line: the URL, then its context, if any.
    private static func label(_ request: SampledRequest) -> String {
        var context: [String] = []
        if let platform = request.platform { context.append("platform=\(platform)") }
        if let appVersion = request.appVersion { context.append("appVersion=\(appVersion)") }
        return context.isEmpty ? request.url : request.url + "  (" + context.joined(separator: " ") + ")"
    }
}
