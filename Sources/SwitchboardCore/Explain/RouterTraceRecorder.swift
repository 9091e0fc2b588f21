/// The observer behind `explain`: it writes each decision of the trie walk as a
/// ``RouterTrace/Step``, so the trace follows the very walk that ``Router/match(_:isAppLink:)``
/// takes.
struct RouterTraceRecorder: TrieWalkObserver {
    /// The table walked, for the names of constraints and of what ending patterns need.
    let table: TrieTable
    /// The request walked, for why a pattern ending at a node does not accept it.
    let request: TrieTable.Request
    private(set) var steps: [RouterTrace.Step] = []
    private(set) var limitHits = 0

    init(table: TrieTable, request: TrieTable.Request) {
        self.table = table
        self.request = request
    }

    mutating func entered(_ edge: TrieEdge, depth: Int, segment: PathSegment) {
        record(depth, segment.string, branch(edge, segment), "entered")
    }

    mutating func refused(_ edge: TrieEdge, depth: Int, segment: PathSegment) {
        let text = segment.string
        switch edge {
        case .static: record(depth, text, "static", "refused: no static segment '\(text)' here")
        case .constrained, .parameter: record(depth, text, branch(edge, segment), "refused: the constraint does not accept '\(text)'")
        }
    }

    mutating func hitLimit(_ edge: TrieEdge, depth: Int, segment: PathSegment) {
        limitHits += 1
        record(
            depth, segment.string, branch(edge, segment),
            "refused: the regex hit the PCRE2 match limit on '\(segment.string)' (counted as no match, and in metrics)")
    }

    mutating func backtracked(_ edge: TrieEdge, depth: Int, segment: PathSegment) {
        record(depth, segment.string, branch(edge, segment), "backtracked")
    }

    mutating func ended(at node: TrieTable.Node, depth: Int, segment: PathSegment?, entry: Int32) {
        record(depth, segment?.string, segment == nil ? "end" : "*", entry >= 0 ? "matched" : endRefusal(node))
    }

    private mutating func record(_ depth: Int, _ segment: String?, _ branch: String, _ outcome: String) {
        steps.append(RouterTrace.Step(depth: depth, segment: segment, branch: branch, outcome: outcome))
    }

    /// The branch's name in a trace: `static 'name'`, `int`, `uuid`, `regex '…'` or `:param`.
    private func branch(_ edge: TrieEdge, _ segment: PathSegment) -> String {
        switch edge {
        case .static: "static '\(segment.string)'"
        case .constrained(let constraint): table.constraints[Int(constraint)].explanation
        case .parameter: ":param"
        }
    }

    /// Why no pattern ending at `node` accepts the request.
    private func endRefusal(_ node: TrieTable.Node) -> String {
        guard node.terminalCount > 0 else { return "no pattern ends here" }
        var needs: [String] = []
        for index in Int(node.terminalStart)..<Int(node.terminalStart + node.terminalCount) {
            let terminal = table.terminals[index]
            if terminal.scheme < 0 {
                needs.append("an app link (the URL is not one)")
            } else {
                let scheme = table.strings[Int(terminal.scheme)]
                needs.append(terminal.host < 0 ? "scheme \(scheme)" : "\(scheme)://\(table.strings[Int(terminal.host)])")
            }
        }
        return "patterns end here but need " + needs.joined(separator: " or ")
    }
}

extension SegmentConstraint {
    /// The branch's name in a trace.
    var explanation: String {
        switch self {
        case .int: "int"
        case .uuid: "uuid"
        case .regex(let regex): "regex '\(regex.pattern)'"
        case .regexNeverMatching: "regex (invalid)"
        }
    }
}
