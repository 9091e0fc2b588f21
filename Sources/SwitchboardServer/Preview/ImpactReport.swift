import SwitchboardCore

/// What a change does to traffic: every request of a sample resolved against the resolver
/// before and the resolver after, and the requests whose answer differs, grouped by where they
/// went before and where they go after. `POST /admin/preview` and `switchboard diff` both
/// answer with it (design.md §9).
///
/// A request **changes** when its `/resolve` answer (status and body) differs. Identical
/// requests of the sample are resolved once and counted as often as they were sampled.
package struct ImpactReport: Sendable {
    /// Where a request went: the status `/resolve` answers and the route, if one matched.
    package struct Outcome: Sendable, Hashable {
        /// 200 (matched), 404 (nothing matched) or 400 (the URL, or its rewrite, is invalid).
        package let status: Int
        package let routeID: String?

        var json: JSONValue {
            var members: [(key: String, value: JSONValue)] = [("status", .number(Double(status)))]
            if let routeID { members.append(("route", .string(routeID))) }
            return .object(members)
        }
    }

    /// One request that changed, with both `/resolve` bodies.
    package struct Example: Sendable {
        package let request: SampledRequest
        package let before: JSONValue
        package let after: JSONValue

        var json: JSONValue {
            var members: [(key: String, value: JSONValue)] = [("url", .string(request.url))]
            if let platform = request.platform { members.append(("platform", .string(platform))) }
            if let appVersion = request.appVersion { members.append(("appVersion", .string(appVersion))) }
            members += [("before", before), ("after", after)]
            return .object(members)
        }
    }

    /// The changed requests that went from one outcome to another with the same rules firing.
    package struct Group: Sendable {
        package let before: Outcome
        package let after: Outcome
        /// The rules that fired for them in the resolution after the change.
        package let rules: [String]
        /// How many sampled requests.
        package let count: Int
        /// The first of them, up to the examples asked for.
        package let examples: [Example]
    }

    /// A count of changed requests of one kind, with examples.
    package struct Tally: Sendable {
        package let count: Int
        package let examples: [Example]
    }

    /// Sampled requests compared (each counted as often as it was sampled).
    package let urls: Int
    /// Distinct requests among them (each resolved once per side).
    package let distinct: Int
    /// Requests whose answer changes.
    package let changed: Int
    /// How long the comparison took, in milliseconds.
    package let elapsedMilliseconds: Double
    /// The changes, the largest group first.
    package let groups: [Group]
    /// For each rule that fired (before or after) for a changed request: how many, most first.
    package let rules: [(id: String, count: Int)]
    /// Requests answered 200 or 404 before and 400 after.
    package let newlyFailing: Tally
    /// Requests that matched a route before and match none after.
    package let newlyUnmatched: Tally

    /// Resolves every request of `requests` with `before` and with `after`, and reports the
    /// differences.
    ///
    /// - Parameters:
    ///   - now: the time both sides are resolved at (seconds since the Unix epoch), for rules
    ///     with a time window; `nil`: no time, such rules do not apply.
    ///   - examples: how many examples each group and tally keeps.
    package static func compare(
        _ requests: [SampledRequest], before: Resolver, after: Resolver, now: Double?, examples: Int
    ) -> ImpactReport {
        let started = ContinuousClock.now
        var builder = Builder(examples: examples)
        var weights: [SampledRequest: Int] = [:]
        var distinct: [SampledRequest] = []
        for request in requests {
            if let weight = weights[request] {
                weights[request] = weight + 1
            } else {
                weights[request] = 1
                distinct.append(request)
            }
        }
        for request in distinct {
            let context = request.context(now: now)
            let old = Answer(request.url, before, context)
            let new = Answer(request.url, after, context)
            guard old != new else { continue }
            builder.add(request, weight: weights[request] ?? 1, before: old, after: new)
        }
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return builder.report(urls: requests.count, distinct: distinct.count, elapsedMilliseconds: milliseconds)
    }

    /// The report as `POST /admin/preview` answers it (after `version` and `change`).
    package var jsonMembers: [(key: String, value: JSONValue)] {
        func tally(_ tally: Tally) -> JSONValue {
            .object([("count", .number(Double(tally.count))), ("examples", .array(tally.examples.map(\.json)))])
        }
        let groups = groups.map { group -> JSONValue in
            .object([
                ("before", group.before.json), ("after", group.after.json),
                ("rules", .array(group.rules.map(JSONValue.string))), ("count", .number(Double(group.count))),
                ("examples", .array(group.examples.map(\.json))),
            ])
        }
        return [
            (
                "sample",
                .object([
                    ("urls", .number(Double(urls))), ("distinct", .number(Double(distinct))),
                    ("changed", .number(Double(changed))), ("elapsedMs", .number((elapsedMilliseconds * 10).rounded() / 10)),
                ])
            ),
            ("groups", .array(groups)),
            ("rules", .array(rules.map { .object([("id", .string($0.id)), ("count", .number(Double($0.count)))]) })),
            ("newlyFailing", tally(newlyFailing)),
            ("newlyUnmatched", tally(newlyUnmatched)),
        ]
    }

    /// One side's answer to one request: what comparing needs, and what an example shows.
    private struct Answer: Equatable {
        let outcome: Outcome
        let ruleIDs: [String]
        /// The `/resolve` body as bytes, which is what is compared.
        let body: [UInt8]
        private let resolution: Resolution?
        private let error: ResolveError?

        init(_ url: String, _ resolver: Resolver, _ context: RequestContext) {
            do {
                let resolution = try resolver.resolve(url, context: context)
                outcome = Outcome(status: resolution.matched ? 200 : 404, routeID: resolution.match?.route.id)
                ruleIDs = resolution.ruleIDs
                body = resolution.jsonBytes
                self.resolution = resolution
                error = nil
            } catch {
                outcome = Outcome(status: 400, routeID: nil)
                // The rules that rewrote the URL into one that cannot be routed.
                ruleIDs = (try? ParsedURL.parse(url)).map { resolver.rewriter.rewrite($0, context: context).firedRuleIDs } ?? []
                body = Array("\(error.code)\u{0}\(error.message)".utf8)
                resolution = nil
                self.error = error
            }
        }

        /// The `/resolve` body.
        var json: JSONValue {
            if let resolution { return resolution.json }
            return APIError.badRequest(error?.code ?? "invalid_url", error?.message ?? "").body
        }

        static func == (lhs: Answer, rhs: Answer) -> Bool {
            lhs.outcome == rhs.outcome && lhs.body == rhs.body
        }
    }

    /// Gathers the changed requests into groups, rule counts and tallies.
    private struct Builder {
        private struct GroupKey: Hashable {
            let before: Outcome
            let after: Outcome
            let rules: [String]
        }

        private struct GroupState {
            var count = 0
            var examples: [Example] = []
        }

        let examples: Int
        private var groups: [GroupKey: GroupState] = [:]
        private var rules: [String: Int] = [:]
        private var changed = 0
        private var failing = GroupState()
        private var unmatched = GroupState()

        init(examples: Int) {
            self.examples = examples
        }

        mutating func add(_ request: SampledRequest, weight: Int, before: Answer, after: Answer) {
            changed += weight
            let key = GroupKey(before: before.outcome, after: after.outcome, rules: after.ruleIDs)
            let example = { Example(request: request, before: before.json, after: after.json) }
            add(example, weight: weight, to: &groups[key, default: GroupState()])
            for rule in Set(before.ruleIDs + after.ruleIDs) { rules[rule, default: 0] += weight }
            if before.outcome.status != 400, after.outcome.status == 400 { add(example, weight: weight, to: &failing) }
            if before.outcome.status == 200, after.outcome.status == 404 { add(example, weight: weight, to: &unmatched) }
        }

        private func add(_ example: () -> Example, weight: Int, to state: inout GroupState) {
            state.count += weight
            if state.examples.count < examples { state.examples.append(example()) }
        }

        func report(urls: Int, distinct: Int, elapsedMilliseconds: Double) -> ImpactReport {
            let sortedGroups = groups.sorted { lhs, rhs in
                if lhs.value.count != rhs.value.count { return lhs.value.count > rhs.value.count }
                return Self.order(lhs.key) < Self.order(rhs.key)
            }
            return ImpactReport(
                urls: urls, distinct: distinct, changed: changed, elapsedMilliseconds: elapsedMilliseconds,
                groups: sortedGroups.map {
                    Group(
                        before: $0.key.before, after: $0.key.after, rules: $0.key.rules, count: $0.value.count,
                        examples: $0.value.examples)
                },
                rules: rules.map { (id: $0.key, count: $0.value) }.sorted { ($0.count, $1.id) > ($1.count, $0.id) },
                newlyFailing: Tally(count: failing.count, examples: failing.examples),
                newlyUnmatched: Tally(count: unmatched.count, examples: unmatched.examples))
        }

        /// A total order of groups of equal size, so that reports are reproducible.
        private static func order(_ key: GroupKey) -> String {
            "\(key.before.status) \(key.before.routeID ?? "") \(key.after.status) \(key.after.routeID ?? "") "
                + key.rules.joined(separator: ",")
        }
    }
}
