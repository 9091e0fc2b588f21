/// The https path patterns of a route table as app-link components, the same list for both
/// platforms: apple-app-site-association `components` and Android's
/// `dynamic_app_link_components` (design.md §11 has the translation table).
///
/// Both formats try their components in order and stop at the first that matches; a URL
/// that matches none does not open the app. Their `*` also crosses `/` (greedy on Apple,
/// lazy on Android), so a component can only state "one segment" when no longer path can
/// reach it. The list is therefore built in blocks of one segment count `n`, from the most
/// segments down, each block preceded by an exclude component `/?*/…/?*` of `n + 1` segments
/// that takes every path longer than the block (and not claimed above it):
///
/// - a block holds the patterns of exactly `n` segments, and the catch-alls of at most `n`
///   segments padded to `n` (`/docs/*rest` is `/docs/?*/?*` in block 3), in the router's
///   priority order (per segment from left to right: static, constrained, `:param`,
///   catch-all; then host-restricted before path-only);
/// - the first block, above the longest pattern, holds the catch-alls alone, which take
///   every longer path;
/// - a static segment is written as it is (percent-encoded where a link carries it so; its
///   `*` and `?` become `?`), a param or a catch-all segment is `?*` (one or more
///   characters);
/// - a route with `app: false` gives exclude components;
/// - a pattern that ends with a static segment is listed with a trailing `/` too (the router
///   ignores it);
/// - a catch-all with a param before a static segment (`/u/:id/posts/*rest`) gets blocks
///   `extraDepth` segments deeper; in the first block, where Apple's greedy `*` could find the
///   static segment further along (``isMisalignable(_:)``), an app route's is left out and an
///   `app: false` route's kept.
///
/// Within one block every component's `?*` stands for exactly one segment of a path without
/// empty segments, whichever way `*` is read, so the first matching component is the route
/// the router picks. What cannot be said exactly is reported by ``inexactness()`` (a lint of
/// `switchboard check`). Custom-scheme and `http`-only patterns are left out, and so are
/// host patterns on a port other than 443.
public struct AppLinkComponents: Sendable {
    /// One published pattern expansion, with the host it is restricted to (`nil`: every domain).
    struct Entry: Sendable {
        var host: String?
        /// The `/` value's segments (a catch-all is its first `?*`).
        var labels: [String]
        var exclude: Bool
        var routeID: String
        var ranks: [Int]
        var isCatchAll: Bool
        /// The constrained params published as any segment (`:id<int>`), for the lint.
        var widened: [String]
        /// The pattern as written.
        var pattern: String
    }

    let entries: [Entry]
    let domains: Set<String>
    /// What the patterns alone show cannot be said exactly (one per route and kind); see
    /// ``inexactness()`` for the full list.
    let inexact: [AppLinkInexactness]

    /// - Parameters:
    ///   - routes: the router's routes (their patterns parse: the router accepted them).
    ///   - domains: the web domains whose links are app links (lowercased).
    public init(routes: some Sequence<Route>, domains: some Sequence<String>) {
        var entries: [Entry] = []
        var inexact: [AppLinkInexactness] = []
        for route in routes {
            var kinds: Set<AppLinkInexactness.Kind> = []
            func note(_ kind: AppLinkInexactness.Kind, _ pattern: String, _ detail: String) {
                guard kinds.insert(kind).inserted else { return }
                inexact.append(AppLinkInexactness(routeID: route.id, pattern: pattern, kind: kind, detail: detail, app: route.app))
            }
            for text in route.patterns {
                guard let expansions = try? RoutePattern.parse(text) else { continue }
                for pattern in expansions {
                    switch pattern.scheme {
                    case nil, "https": break
                    default: continue
                    }
                    var host = pattern.host
                    if let restricted = host, RoutePattern.hostNamesPort(restricted), let colon = restricted.lastIndex(of: ":") {
                        let port = restricted[restricted.index(after: colon)...]
                        guard Int(port) == 443 else {
                            note(
                                .portLeftOut, text,
                                "https links on port \(port) cannot be app links (the association files are read on port 443)")
                            continue
                        }
                        host = String(restricted[..<colon])
                    }
                    var ranks: [Int] = []
                    var labels: [String] = []
                    var isCatchAll = false
                    var widened: [String] = []
                    for segment in pattern.segments {
                        switch segment {
                        case .literal(let literal):
                            ranks.append(0)
                            let label = Self.label(literal)
                            if label.wildcard {
                                note(
                                    .wildcardLiteral, text,
                                    "the static segment '\(literal)' holds '*' or '?', published as '?' (any one character)")
                            }
                            if label.encoded {
                                note(
                                    .encodedLiteral, text,
                                    "the static segment '\(literal)' is published percent-encoded ('\(label.text)'): a link that spells it otherwise does not open the app"
                                )
                            }
                            labels.append(label.text)
                        case .parameter(let name, let constraint):
                            ranks.append(constraint == nil ? 2 : 1)
                            labels.append("?*")
                            if let constraint { widened.append(":\(name)<\(constraint)>") }
                        case .catchAll:
                            ranks.append(3)
                            labels.append("?*")
                            isCatchAll = true
                        }
                    }
                    if isCatchAll, Self.isMisalignable(labels) {
                        note(
                            .deepCatchAll, text,
                            "a param before a static segment before the catch-all: Apple's greedy '*' could find the static segment "
                                + "further along a long path, so links more than \(Self.extraDepth) segments longer than the longest "
                                + (route.app
                                    ? "pattern of their host do not open the app"
                                    : "pattern of their host that it could match that way do not open the app, whichever route takes them"))
                    }
                    entries.append(
                        Entry(
                            host: host, labels: labels, exclude: !route.app, routeID: route.id, ranks: ranks, isCatchAll: isCatchAll,
                            widened: widened, pattern: text))
                }
            }
        }
        entries.sort(by: Self.precedes)
        self.entries = entries
        self.inexact = inexact
        self.domains = Set(domains.map { $0.lowercased() })
    }

    /// The components for one requested host (lowercased, without port): host-restricted
    /// patterns for that host, and path-only patterns when the host is in `domains`, in blocks
    /// of one segment count (see the type's documentation). A `/` value already published
    /// earlier is not repeated: the first one claims every path it matches.
    public func components(forHost host: String) -> [AppLinkComponent] {
        let host = host.lowercased()
        let isDomain = domains.contains(host)
        let published = entries.filter { entry in
            if let restricted = entry.host { return restricted == host }
            return isDomain
        }
        guard let longestPattern = published.map(\.labels.count).max() else { return [] }
        // Past the last block, a catch-all with a param before a static segment could match a
        // path it does not take (see `isMisalignable`): an app route's is left out there, an
        // `app: false` route's kept (it can only keep the app closed). Blocks go deeper so
        // that both hold exactly for links of up to `extraDepth` more segments.
        let misalignable = published.contains { $0.isCatchAll && Self.isMisalignable($0.labels) }
        let longest = longestPattern + (misalignable ? Self.extraDepth : 0)
        var components: [AppLinkComponent] = []
        var seen: Set<String> = []
        func append(_ path: String, exclude: Bool, comment: String) {
            guard seen.insert(path).inserted else { return }
            components.append(AppLinkComponent(path: path, exclude: exclude, comment: comment))
        }
        for count in stride(from: longest + 1, through: 0, by: -1) {
            let block = published.filter { entry in
                guard entry.isCatchAll else { return entry.labels.count == count }
                guard entry.labels.count <= count else { return false }
                return count <= longest || entry.exclude || !Self.isMisalignable(entry.labels)
            }
            guard !block.isEmpty else { continue }
            if count <= longest {
                append(
                    Self.anySegments(count + 1), exclude: true,
                    comment: "no route takes a path of \(count + 1) or more segments not listed above")
            }
            for entry in block {
                let padding = Array(repeating: "?*", count: count - entry.labels.count)
                let path = "/" + (entry.labels + padding).joined(separator: "/")
                append(path, exclude: entry.exclude, comment: entry.routeID)
                // The router ignores a trailing `/`; a `?*` at the end takes it, a static
                // segment needs it spelled out.
                if let last = (entry.labels + padding).last, last != "?*" {
                    append(path + "/", exclude: entry.exclude, comment: entry.routeID)
                }
            }
        }
        return components
    }

    /// Every pattern the components cannot state exactly, each route once per kind: what the
    /// patterns alone show, and each constrained param whose component claims links that the
    /// constraint refuses and a later route with the other `app` value takes (a link no route
    /// takes opening the app is documented, not reported). Worked out on demand (for
    /// `switchboard check`): it compares each constrained pattern with the patterns it can
    /// shadow.
    public func inexactness() -> [AppLinkInexactness] {
        var found = inexact
        var reported: Set<String> = []
        var byFirstLabel: [String: [Int]] = [:]
        for (index, entry) in entries.enumerated() { byFirstLabel[entry.labels.first ?? "", default: []].append(index) }
        for (index, entry) in entries.enumerated() where !entry.widened.isEmpty && !reported.contains(entry.routeID) {
            let first = entry.labels.first ?? ""
            let candidates =
                first == "?*" ? Array(entries.indices) : (byFirstLabel[first] ?? []) + (byFirstLabel["?*"] ?? [])
            guard
                let shadowed = candidates.lazy.filter({ $0 > index }).map({ self.entries[$0] }).first(where: { other in
                    other.exclude != entry.exclude && other.routeID != entry.routeID && Self.overlap(entry, other)
                })
            else { continue }
            reported.insert(entry.routeID)
            let effect =
                entry.exclude
                ? "links it refuses that route '\(shadowed.routeID)' takes do not open the app"
                : "links it refuses that route '\(shadowed.routeID)' (app: false) takes open the app"
            found.append(
                AppLinkInexactness(
                    routeID: entry.routeID, pattern: entry.pattern, kind: .constraintWidened,
                    detail:
                        "\(entry.widened.joined(separator: ", ")) is published as any one segment (neither format can state a constraint): "
                        + effect,
                    app: !entry.exclude))
        }
        return found
    }

    /// Whether some path of a host both entries apply to matches both.
    static func overlap(_ lhs: Entry, _ rhs: Entry) -> Bool {
        if let left = lhs.host, let right = rhs.host, left != right { return false }
        switch (lhs.isCatchAll, rhs.isCatchAll) {
        case (false, false): guard lhs.labels.count == rhs.labels.count else { return false }
        case (true, false): guard rhs.labels.count >= lhs.labels.count else { return false }
        case (false, true): guard lhs.labels.count >= rhs.labels.count else { return false }
        case (true, true): break
        }
        return zip(lhs.labels, rhs.labels).allSatisfy { $0 == $1 || $0 == "?*" || $1 == "?*" }
    }

    /// How many segments past the longest pattern the blocks reach when a catch-all needs them.
    package static let extraDepth = 8

    /// Whether Apple's greedy `*` could move a static segment of these labels along a longer
    /// path: a `?*` (a param) before a static segment, before the catch-all's `?*`. In the
    /// last block, which takes paths of any length, `/?*/b/?*` would match `/b/c/b/c/x`; in a
    /// block of one segment count every `?*` is held to one segment. (Android's lazy `*` stops
    /// at the first `/` and cannot.)
    static func isMisalignable(_ labels: [String]) -> Bool {
        guard let param = labels.dropLast().firstIndex(of: "?*") else { return false }
        return labels[(param + 1)...].dropLast().contains { $0 != "?*" }
    }

    /// `/?*/?*…`: any path of at least `count` non-empty segments.
    static func anySegments(_ count: Int) -> String {
        String(repeating: "/?*", count: count)
    }

    /// The router's order among patterns that can match one path (see the type's
    /// documentation): per segment, then host-restricted first, then by text.
    static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
        for (left, right) in zip(lhs.ranks, rhs.ranks) where left != right {
            return left < right
        }
        if lhs.ranks.count != rhs.ranks.count { return lhs.ranks.count > rhs.ranks.count }
        if (lhs.host == nil) != (rhs.host == nil) { return lhs.host != nil }
        if lhs.labels != rhs.labels { return lhs.labels.lexicographicallyPrecedes(rhs.labels) }
        return (lhs.host ?? "") < (rhs.host ?? "")
    }

    /// A static segment in a `/` value: percent-encoded as a browser sends it (UTF-8 and the
    /// characters a path segment cannot carry raw), and `*` and `?`, wildcards in both
    /// formats, as `?` (one character, which also matches themselves).
    package static func label(_ literal: String) -> (text: String, wildcard: Bool, encoded: Bool) {
        var text = ""
        var wildcard = false
        var encoded = false
        for byte in literal.utf8 {
            switch byte {
            case UInt8(ascii: "*"), UInt8(ascii: "?"):
                text.append("?")
                wildcard = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"),
                UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: ","),
                UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                text.unicodeScalars.append("%")
                text.unicodeScalars.append(Unicode.Scalar(PercentEncoding.hexDigit(byte >> 4)))
                text.unicodeScalars.append(Unicode.Scalar(PercentEncoding.hexDigit(byte & 0x0F)))
                encoded = true
            }
        }
        return (text, wildcard, encoded)
    }
}
