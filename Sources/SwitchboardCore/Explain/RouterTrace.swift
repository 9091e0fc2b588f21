/// The router's walk for one URL (`explain`): every branch tried in priority order, the
/// constraints that refused a segment, the backtracks, and where it ended.
public struct RouterTrace: Sendable, Hashable {
    /// One step of the depth-first walk.
    public struct Step: Sendable, Hashable {
        /// The segment's position (0 = the first; for custom schemes the host is segment 0).
        public let depth: Int
        /// The decoded segment, or `nil` at the end of the path.
        public let segment: String?
        /// The branch: `static 'name'`, `int`, `uuid`, `regex '…'`, `:param`, `*`, or `end`.
        public let branch: String
        /// `entered`, `refused` (the constraint or label does not accept the segment),
        /// `backtracked` (nothing matched below), `matched`, or `no pattern ends here`.
        public let outcome: String

        /// The step as a JSON object (`segment` is left out at the end of the path).
        public var json: JSONValue {
            var members: [(key: String, value: JSONValue)] = [("depth", .number(Double(depth)))]
            if let segment { members.append(("segment", .string(segment))) }
            members.append(("branch", .string(branch)))
            members.append(("outcome", .string(outcome)))
            return .object(members)
        }
    }

    /// The URL routed (after rewriting).
    public let url: String
    /// Whether it is an app link (only app links match path-only patterns).
    public let isAppLink: Bool
    /// The decoded segments the walk consumed.
    public let segments: [String]
    /// Every branch tried, in the order of the walk.
    public let steps: [Step]
    /// The pattern that matched, if any.
    public let pattern: String?
    /// The route that matched, if any.
    public let routeID: String?
    /// Why the walk failed (a bad escape in the path), if it could not run.
    public let error: String?

    /// The trace as a JSON object, in the `explain` answer.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("url", .string(url)), ("isAppLink", .bool(isAppLink)), ("segments", .array(segments.map(JSONValue.string))),
            ("steps", .array(steps.map(\.json))),
        ]
        if let pattern { members.append(("pattern", .string(pattern))) }
        if let routeID { members.append(("routeId", .string(routeID))) }
        if let error { members.append(("error", .string(error))) }
        return .object(members)
    }
}
