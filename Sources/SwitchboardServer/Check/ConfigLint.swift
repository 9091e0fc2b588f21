import Foundation
import SwitchboardCore

/// The lints of `switchboard check` beyond validity (docs/command-line.md "Checking a config"): examples
/// attached to rules and routes (errors when they fail), and warnings for routes no URL
/// reaches, rewrite targets that land on no route, patterns that overlap only through
/// their constraints, and patterns the app-link association files cannot state exactly.
enum ConfigLint {
    /// What the lints found.
    struct Findings {
        var errors: [ConfigIssue] = []
        var warnings: [ConfigIssue] = []
    }

    static func run(config: ConfigDirectory, snapshot: Snapshot) -> Findings {
        var findings = Findings()
        let resolver = snapshot.resolver
        findings.errors += routeExamples(config, resolver)
        let (ruleErrors, shadowWarnings) = ruleExamples(config.rewriteRules, resolver)
        findings.errors += ruleErrors
        findings.warnings += shadowWarnings
        findings.warnings += unreachableRoutes(config, resolver)
        findings.warnings += deadTargets(config.rewriteRules, resolver)
        findings.warnings += constraintOverlaps(config)
        findings.warnings += inexactAppLinks(config, snapshot.appLinkComponents)
        return findings
    }

    // MARK: - App links

    /// Route patterns the association files cannot state exactly (design.md §11): what the
    /// published component does instead, with the kind's stable code. Only with apps
    /// configured: without them nothing is published.
    static func inexactAppLinks(_ config: ConfigDirectory, _ components: AppLinkComponents) -> [ConfigIssue] {
        let apps = config.settings.apps
        guard !apps.ios.isEmpty || !apps.android.isEmpty else { return [] }
        var files: [String: String] = [:]
        for loaded in config.routeFiles {
            for route in loaded.file.routes where files[route.id] == nil { files[route.id] = loaded.path }
        }
        return components.inexactness().map { finding in
            ConfigIssue(
                file: files[finding.routeID], item: finding.routeID,
                message: "pattern '\(finding.pattern)' cannot be an exact app-link rule: \(finding.detail)", code: finding.code)
        }
    }

    // MARK: - Examples

    /// A route example resolves (rules included) to the route, or as it says.
    static func routeExamples(_ config: ConfigDirectory, _ resolver: Resolver) -> [ConfigIssue] {
        var issues: [ConfigIssue] = []
        for loaded in config.routeFiles {
            for route in loaded.file.routes {
                for (index, example) in (route.examples ?? []).enumerated() {
                    let problems = check(example, resolver, defaultRouteID: route.id, ruleID: nil)
                    issues += problems.map {
                        ConfigIssue(
                            file: loaded.path, item: route.id, message: "example #\(index) \(example.url): \($0)", code: "example_failed")
                    }
                }
            }
        }
        return issues
    }

    /// A rule example makes the rule fire (and ends as it says). When every example of a rule
    /// is taken by one earlier `last` rule, that rule shadows it in practice: a warning too.
    static func ruleExamples(_ rules: [RewriteRule], _ resolver: Resolver) -> (errors: [ConfigIssue], warnings: [ConfigIssue]) {
        var errors: [ConfigIssue] = []
        var warnings: [ConfigIssue] = []
        for (ruleIndex, rule) in rules.enumerated() {
            let examples = rule.examples ?? []
            var shadowers: [String?] = []
            for (index, example) in examples.enumerated() {
                let problems = check(example, resolver, defaultRouteID: nil, ruleID: rule.id)
                errors += problems.map {
                    ConfigIssue(
                        file: "rewrites.yaml", item: rule.id, message: "rule #\(ruleIndex) example #\(index) \(example.url): \($0)",
                        code: "example_failed")
                }
                let fired = (try? resolver.resolve(example.url, context: example.context).ruleIDs) ?? []
                shadowers.append(fired.contains(rule.id) ? nil : fired.first)
            }
            if let first = shadowers.first, let shadower = first, shadowers.allSatisfy({ $0 == shadower }) {
                warnings.append(
                    ConfigIssue(
                        file: "rewrites.yaml", item: rule.id,
                        message: "rule #\(ruleIndex) is shadowed: the earlier rule '\(shadower)' fires first on every one of its examples",
                        code: "shadowed_rule"))
            }
        }
        return (errors, warnings)
    }

    /// What is wrong with one example, if anything.
    private static func check(_ example: ConfigExample, _ resolver: Resolver, defaultRouteID: String?, ruleID: String?) -> [String] {
        let resolution: Resolution
        do {
            resolution = try resolver.resolve(example.url, context: example.context)
        } catch {
            return ["does not resolve: \(error.message)"]
        }
        var problems: [String] = []
        if let ruleID, !resolution.ruleIDs.contains(ruleID) {
            let other = resolution.ruleIDs.first.map { "; rule '\($0)' fired first" } ?? ""
            problems.append("the rule does not fire\(other)")
        }
        if let expected = example.rewritesTo, case let final = resolution.rewrittenURL ?? resolution.url, final != expected {
            problems.append("rewrites to \(final), expected \(expected)")
        }
        let actualRoute = resolution.match?.route.id
        if example.matched == false {
            if let actualRoute { problems.append("matches route '\(actualRoute)', expected no match") }
        } else if let expected = example.routeId ?? (example.matched == true ? nil : defaultRouteID), actualRoute != expected {
            problems.append("goes to \(actualRoute.map { "route '\($0)'" } ?? "no route"), expected route '\(expected)'")
        } else if example.matched == true, actualRoute == nil {
            problems.append("matches no route")
        }
        if let expected = example.openWeb, resolution.openWeb != expected {
            problems.append(
                expected ? "the app is not sent to the web page, expected openWeb" : "the app is sent to the web page (openWeb)")
        }
        for (name, value) in (example.params ?? [:]).sorted(by: { $0.key < $1.key }) {
            let actual = resolution.params.first { $0.name == name }?.value
            if actual != .string(value) {
                problems.append("param '\(name)' is \(actual.map(\.jsonText) ?? "missing"), expected \"\(value)\"")
            }
        }
        return problems
    }

    // MARK: - Reachability

    /// Whether a host pattern without a port reaches `routeID` on port 1, which no real
    /// pattern names: such a pattern takes every port, so a pattern for the same host with the
    /// scheme's default port, which wins on the plain sample, does not make it unreachable.
    private static func reachesOnAnotherPort(
        _ pattern: RoutePattern, _ routeID: String, _ settings: ServerSettings, _ resolver: Resolver
    ) -> Bool {
        guard let host = pattern.host, !RoutePattern.hostNamesPort(host),
            let sample = PatternSample.url(for: pattern, schemes: settings.schemes, domains: settings.domains, port: 1),
            let url = try? ParsedURL.parse(sample)
        else { return false }
        return (try? resolver.router.match(url, isAppLink: resolver.policy.isAppLink(url)))?.route.id == routeID
    }

    /// A route is unreachable when a URL built from its pattern goes elsewhere (the router
    /// alone, before rules): another route always wins, or no app link can match a path-only
    /// pattern because `schemes` and `domains` are empty.
    static func unreachableRoutes(_ config: ConfigDirectory, _ resolver: Resolver) -> [ConfigIssue] {
        var issues: [ConfigIssue] = []
        let settings = config.settings
        for loaded in config.routeFiles {
            for route in loaded.file.routes {
                var reached = false
                var detail = ""
                for text in route.patterns {
                    guard let expansions = try? RoutePattern.parse(text) else { continue }
                    for expansion in expansions {
                        guard let sample = PatternSample.url(for: expansion, schemes: settings.schemes, domains: settings.domains) else {
                            if expansion.scheme == nil, settings.schemes.isEmpty, settings.domains.isEmpty {
                                detail = "pattern '\(text)' is path-only but `schemes` and `domains` are empty, so no URL is an app link"
                            } else {
                                reached = true  // no sample can be built (a regex we cannot satisfy): assume reachable
                            }
                            continue
                        }
                        guard let url = try? ParsedURL.parse(sample) else {
                            reached = true
                            continue
                        }
                        let match = try? resolver.router.match(url, isAppLink: resolver.policy.isAppLink(url))
                        if match?.route.id == route.id || reachesOnAnotherPort(expansion, route.id, settings, resolver) {
                            reached = true
                        } else if detail.isEmpty {
                            let winner = match.map { "route '\($0.route.id)'" } ?? "no route"
                            detail = "the URL \(sample) (from pattern '\(text)') goes to \(winner)"
                        }
                    }
                }
                if !reached, !detail.isEmpty {
                    issues.append(
                        ConfigIssue(
                            file: loaded.path, item: route.id, message: "no URL reaches this route: \(detail)", code: "unreachable_route"))
                }
            }
        }
        return issues
    }

    /// A rule whose target, filled with sample values, resolves to no route (and no
    /// fallback covers it). Rules with examples are checked precisely by them instead.
    static func deadTargets(_ rules: [RewriteRule], _ resolver: Resolver) -> [ConfigIssue] {
        var issues: [ConfigIssue] = []
        for (index, rule) in rules.enumerated() where (rule.examples ?? []).isEmpty {
            // Tried with several values, so a target like `app://product/$1` is not flagged
            // because `sample` is not an `<int>`.
            var tried: String?
            var reachesRoute = false
            for value in PatternSample.candidates {
                guard let sample = PatternSample.fill(template: rule.target, value: value),
                    let url = try? ParsedURL.parse(sample)
                else { continue }
                tried = tried ?? sample
                if (try? resolver.router.match(url, isAppLink: resolver.policy.isAppLink(url))) != nil {
                    reachesRoute = true
                    break
                }
            }
            guard let tried, !reachesRoute else { continue }
            issues.append(
                ConfigIssue(
                    file: "rewrites.yaml", item: rule.id,
                    message:
                        "rule #\(index): its target '\(rule.target)' resolves to no route (tried \(tried) and other values); add a route or examples",
                    code: "dead_target"))
        }
        return issues
    }

    // MARK: - Overlaps

    /// Patterns of different routes with the same shape — same scheme, host, literals and
    /// param positions — that differ only in their constraints (`/p/:id<int>` and `/p/:slug`):
    /// some URLs fit both, and priority alone decides where they go.
    static func constraintOverlaps(_ config: ConfigDirectory) -> [ConfigIssue] {
        struct Registered {
            var routeID: String
            var file: String
            var pattern: RoutePattern
        }
        var byShape: [[String]: [Registered]] = [:]
        var order: [[String]] = []
        for loaded in config.routeFiles {
            for route in loaded.file.routes {
                for text in route.patterns {
                    for expansion in (try? RoutePattern.parse(text)) ?? [] {
                        let shape =
                            [expansion.scheme ?? "", expansion.host ?? ""]
                            + expansion.segments.map { segment in
                                switch segment {
                                case .literal(let text): "=" + text
                                case .parameter: ":"
                                case .catchAll: "*"
                                }
                            }
                        if byShape[shape] == nil { order.append(shape) }
                        byShape[shape, default: []].append(Registered(routeID: route.id, file: loaded.path, pattern: expansion))
                    }
                }
            }
        }
        var issues: [ConfigIssue] = []
        var reported: Set<[String]> = []
        for shape in order {
            let group = byShape[shape] ?? []
            for (offset, first) in group.enumerated() {
                for second in group[(offset + 1)...] where first.routeID != second.routeID {
                    guard let example = sharedURL(first.pattern, second.pattern, config.settings) else { continue }
                    guard reported.insert([first.routeID, second.routeID, first.pattern.text, second.pattern.text]).inserted else {
                        continue
                    }
                    issues.append(
                        ConfigIssue(
                            file: second.file, item: second.routeID,
                            message: "pattern '\(second.pattern.text)' overlaps route '\(first.routeID)' ('\(first.pattern.text)') "
                                + "only through constraints: a URL both accept, such as \(example), goes by priority "
                                + "(static > int > uuid > regex > :param)",
                            code: "constraint_overlap"))
                }
            }
        }
        return issues
    }

    /// A URL both same-shaped patterns accept, or `nil` when their constraints keep them apart
    /// (for every param position some sample value must pass both constraints).
    private static func sharedURL(_ first: RoutePattern, _ second: RoutePattern, _ settings: ServerSettings) -> String? {
        var segments: [PatternSegment] = []
        for (left, right) in zip(first.segments, second.segments) {
            switch (left, right) {
            case (.parameter(_, let a), .parameter(_, let b)):
                guard let value = PatternSample.candidates.first(where: { PatternSample.accepts(a, $0) && PatternSample.accepts(b, $0) })
                else { return nil }
                segments.append(.literal(value))
            default:
                segments.append(left)
            }
        }
        let pattern = RoutePattern(text: first.text, scheme: first.scheme, host: first.host, segments: segments)
        return PatternSample.url(for: pattern, schemes: settings.schemes, domains: settings.domains)
    }
}
