/// One line of the results table: a Switchboard figure beside its baseline and target.
struct Row {
    let benchmark: String
    let unit: String
    let switchboard: Double
    /// The same figure for the baseline in the same run (RoutingKit, or 10 rules), if any.
    let baseline: Double?
    let baselineName: String
    /// The target for the Switchboard figure (lower is better), if any.
    let target: Double?

    var ratio: Double? { baseline.map { switchboard / $0 } }
    var met: String { target.map { switchboard <= $0 ? "yes" : "no" } ?? "" }
}

/// Prints rows as a Markdown table, ready for BENCHMARKS.md.
func printTable(_ rows: [Row]) {
    func format(_ value: Double?) -> String {
        guard let value else { return "" }
        if value == 0 { return "0" }
        if value >= 100 { return String(Int(value.rounded())) }
        if value >= 10 { return String(Double(Int(value * 10)) / 10) }
        return String(Double(Int(value * 1000)) / 1000)
    }
    print("| benchmark | unit | Switchboard | baseline | baseline value | ratio | target | met |")
    print("|---|---|---:|---|---:|---:|---:|---|")
    for row in rows {
        let cells = [
            row.benchmark, row.unit, format(row.switchboard), row.baseline == nil ? "" : row.baselineName,
            format(row.baseline), row.ratio.map { format($0) + "×" } ?? "", format(row.target), row.met,
        ]
        print("| " + cells.joined(separator: " | ") + " |")
    }
}
