import SwitchboardCore

/// The impact preview of `POST /admin/preview` (its JSON) for a terminal: how many sampled links
/// move, from where to where.
enum AdminPreviewText {
    /// ```
    /// preview over 120 sampled links (37 distinct): 4 would change
    ///   3  200 product.detail -> 200 promo.landing  rules: double11
    ///      shopapp://product/42
    /// newly failing: 0, newly unmatched: 1
    /// ```
    static func text(_ preview: JSONValue) -> String {
        func number(_ value: JSONValue?) -> Int {
            if case .number(let number)? = value { return Int(number) }
            return 0
        }
        func outcome(_ value: JSONValue?) -> String {
            "\(number(value?["status"])) \(value?["route"]?.stringValue ?? "(no route)")"
        }
        func urls(_ examples: JSONValue?) -> [String] {
            guard case .array(let values)? = examples else { return [] }
            return values.compactMap { $0["url"]?.stringValue }
        }
        let sample = preview["sample"]
        var out = "preview over \(number(sample?["urls"])) sampled links (\(number(sample?["distinct"])) distinct): "
        out += "\(number(sample?["changed"])) would change\n"
        if case .array(let groups)? = preview["groups"] {
            for group in groups {
                out += "  \(number(group["count"]))  \(outcome(group["before"])) -> \(outcome(group["after"]))"
                if case .array(let rules)? = group["rules"], !rules.isEmpty {
                    out += "  rules: " + rules.compactMap(\.stringValue).joined(separator: ", ")
                }
                out += "\n"
                out += urls(group["examples"]).map { "      \($0)\n" }.joined()
            }
        }
        out += "newly failing: \(number(preview["newlyFailing"]?["count"])), "
        out += "newly unmatched: \(number(preview["newlyUnmatched"]?["count"]))\n"
        return out
    }
}
