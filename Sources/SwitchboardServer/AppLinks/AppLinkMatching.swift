import SwitchboardCore

/// How each platform evaluates its association file for one URL (design.md §11): the first
/// component that matches decides, `exclude` keeps the app closed, and no match keeps it
/// closed. Used by `switchboard applinks check` on live files and on the generated ones alike.
enum AppLinkMatching {
    /// The part of a URL the components look at (percent-encoded, as written).
    struct Link: Sendable, Hashable {
        var path: String
        var query: String?
        var fragment: String?
    }

    /// Whether Apple opens the app for `link` with these AASA `components`.
    static func appleOpens(_ components: [JSONValue], _ link: Link) -> Bool {
        for component in components {
            let caseSensitive = component["caseSensitive"].flatMap { if case .bool(let value) = $0 { value } else { nil } } ?? true
            func matches(_ pattern: String?, _ text: String) -> Bool {
                guard let pattern else { return true }
                return caseSensitive ? greedyMatches(pattern, text) : greedyMatches(pattern.lowercased(), text.lowercased())
            }
            guard matches(component["/"]?.stringValue, link.path), matches(component["#"]?.stringValue, link.fragment ?? "") else {
                continue
            }
            switch component["?"] {
            case nil: break
            case .string(let pattern)?:
                guard matches(pattern, link.query ?? "") else { continue }
            case .object(let entries)?:
                let items = queryItems(link.query)
                guard
                    entries.allSatisfy({ entry in
                        items.contains { matches(entry.key, $0.name) && matches(entry.value.stringValue ?? "", $0.value) }
                    })
                else { continue }
            default: continue
            }
            return component["exclude"] != .bool(true)
        }
        return false
    }

    /// Whether Android opens the app for `link` with these `dynamic_app_link_components`.
    static func androidOpens(_ components: [JSONValue], _ link: Link) -> Bool {
        for component in components {
            guard lazyMatches(component["/"]?.stringValue ?? "*", link.path),
                lazyMatches(component["#"]?.stringValue ?? "*", link.fragment ?? "")
            else { continue }
            if case .object(let entries)? = component["?"] {
                let items = queryItems(link.query)
                guard
                    entries.allSatisfy({ entry in
                        items.contains { $0.name == entry.key && lazyMatches(entry.value.stringValue ?? "", $0.value) }
                    })
                else { continue }
            }
            return component["exclude"] != .bool(true)
        }
        return false
    }

    /// Apple's wildcards: `*` any run of characters (greedy: for a yes or no, any run), `?` one.
    static func greedyMatches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.unicodeScalars)
        let s = Array(text.unicodeScalars)
        var i = 0
        var j = 0
        var star: Int?
        var resume = 0
        while j < s.count {
            if i < p.count, p[i] == "?" || (p[i] != "*" && p[i] == s[j]) {
                i += 1
                j += 1
            } else if i < p.count, p[i] == "*" {
                star = i
                resume = j
                i += 1
            } else if let star {
                i = star + 1
                resume += 1
                j = resume
            } else {
                return false
            }
        }
        while i < p.count, p[i] == "*" { i += 1 }
        return i == p.count
    }

    /// Android's wildcards: `*` takes characters up until the character after it in the
    /// pattern is found (and never gives them back); at the end, the rest. `?` is one character.
    static func lazyMatches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.unicodeScalars)
        let s = Array(text.unicodeScalars)
        var i = 0
        var j = 0
        while i < p.count {
            switch p[i] {
            case "*":
                i += 1
                guard i < p.count else { return true }
                if p[i] == "?" || p[i] == "*" { continue }
                guard let found = s[j...].firstIndex(of: p[i]) else { return false }
                j = found
            case "?":
                guard j < s.count else { return false }
                i += 1
                j += 1
            default:
                guard j < s.count, s[j] == p[i] else { return false }
                i += 1
                j += 1
            }
        }
        return j == s.count
    }

    /// `name=value` pairs of a query, as written.
    private static func queryItems(_ query: String?) -> [(name: String, value: String)] {
        (query ?? "").split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }
}
