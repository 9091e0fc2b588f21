extension TrieTable {
    /// ``lookup(_:_:)`` with a record of every branch tried, for `explain`. The same order and
    /// the same answer; kept apart so the lookup itself carries no tracing cost.
    func explain(
        _ segments: UnsafeBufferPointer<PathSegment>, _ request: Request, steps: inout [RouterTrace.Step]
    ) -> Int32 {
        explainWalk(0, 0, segments, request, &steps)
    }

    private func explainWalk(
        _ nodeIndex: Int32, _ depth: Int, _ segments: UnsafeBufferPointer<PathSegment>, _ request: Request,
        _ steps: inout [RouterTrace.Step]
    ) -> Int32 {
        let node = nodes[Int(nodeIndex)]
        if depth == segments.count {
            let found = acceptingEntry(node, request)
            steps.append(
                RouterTrace.Step(
                    depth: depth, segment: nil, branch: "end", outcome: found >= 0 ? "matched" : endRefusal(node, request)))
            return found
        }
        let segment = segments[depth]
        let text = segment.string
        if node.staticCount > 0 {
            if let child = staticChild(node, segment) {
                steps.append(RouterTrace.Step(depth: depth, segment: text, branch: "static '\(text)'", outcome: "entered"))
                let found = explainWalk(child, depth + 1, segments, request, &steps)
                if found >= 0 { return found }
                steps.append(RouterTrace.Step(depth: depth, segment: text, branch: "static '\(text)'", outcome: "backtracked"))
            } else {
                steps.append(
                    RouterTrace.Step(
                        depth: depth, segment: text, branch: "static", outcome: "refused: no static segment '\(text)' here"))
            }
        }
        if node.constrainedCount > 0 {
            for edgeIndex in Int(node.constrainedStart)..<Int(node.constrainedStart + node.constrainedCount) {
                let edge = constrainedEdges[edgeIndex]
                let constraint = constraints[Int(edge.constraint)]
                let branch = constraint.explanation
                guard constraint.accepts(segment.bytes) else {
                    steps.append(
                        RouterTrace.Step(
                            depth: depth, segment: text, branch: branch, outcome: "refused: the constraint does not accept '\(text)'"))
                    continue
                }
                steps.append(RouterTrace.Step(depth: depth, segment: text, branch: branch, outcome: "entered"))
                let found = explainWalk(edge.child, depth + 1, segments, request, &steps)
                if found >= 0 { return found }
                steps.append(RouterTrace.Step(depth: depth, segment: text, branch: branch, outcome: "backtracked"))
            }
        }
        if node.parameter >= 0 {
            steps.append(RouterTrace.Step(depth: depth, segment: text, branch: ":param", outcome: "entered"))
            let found = explainWalk(node.parameter, depth + 1, segments, request, &steps)
            if found >= 0 { return found }
            steps.append(RouterTrace.Step(depth: depth, segment: text, branch: ":param", outcome: "backtracked"))
        }
        if node.catchAll >= 0 {
            let catchAll = nodes[Int(node.catchAll)]
            let found = acceptingEntry(catchAll, request)
            steps.append(
                RouterTrace.Step(
                    depth: depth, segment: text, branch: "*", outcome: found >= 0 ? "matched" : endRefusal(catchAll, request)))
            return found
        }
        return -1
    }

    /// Why no pattern ending at `node` accepts the request.
    private func endRefusal(_ node: Node, _ request: Request) -> String {
        guard node.terminalCount > 0 else { return "no pattern ends here" }
        var needs: [String] = []
        for index in Int(node.terminalStart)..<Int(node.terminalStart + node.terminalCount) {
            let terminal = terminals[index]
            if terminal.scheme < 0 {
                needs.append("an app link (the URL is not one)")
            } else {
                let scheme = strings[Int(terminal.scheme)]
                needs.append(terminal.host < 0 ? "scheme \(scheme)" : "\(scheme)://\(strings[Int(terminal.host)])")
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
