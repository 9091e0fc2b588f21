@testable import SwitchboardCore

/// Models of how each platform evaluates its association file, written from the platforms'
/// documentation (not from the generator): the oracle of the app-link property tests.
enum AppLinkMatchers {
    /// Apple's `components` (apple-app-site-association): the first component whose `/`
    /// pattern matches the path decides; `exclude` keeps the app closed; no match, closed.
    /// `*` matches zero or more characters (greedy: as many as possible, so for a yes/no it
    /// may take any run), `?` any one character, `?*` one or more.
    static func appleOpens(_ components: [AppLinkComponent], path: String) -> Bool {
        guard let first = components.first(where: { appleMatches($0.path, path) }) else { return false }
        return !first.exclude
    }

    /// Android's `dynamic_app_link_components`: rules tried in order, the first match decides,
    /// a URL that matches no rule does not open the app. `*` matches zero or more characters
    /// "up until the character after the wildcard in the pattern is found" (lazy, and it
    /// never gives back), `?` any one character.
    static func androidOpens(_ components: [AppLinkComponent], path: String) -> Bool {
        guard let first = components.first(where: { androidMatches($0.path, path) }) else { return false }
        return !first.exclude
    }

    static func appleMatches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.utf8)
        let s = Array(text.utf8)
        func match(_ i: Int, _ j: Int) -> Bool {
            if i == p.count { return j == s.count }
            if p[i] == UInt8(ascii: "*") { return (j...s.count).reversed().contains { match(i + 1, $0) } }
            guard j < s.count, p[i] == UInt8(ascii: "?") || p[i] == s[j] else { return false }
            return match(i + 1, j + 1)
        }
        return match(0, 0)
    }

    static func androidMatches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.utf8)
        let s = Array(text.utf8)
        var i = 0
        var j = 0
        while i < p.count {
            switch p[i] {
            case UInt8(ascii: "*"):
                i += 1
                guard i < p.count else { return true }
                let stop = p[i]
                if stop == UInt8(ascii: "?") || stop == UInt8(ascii: "*") { continue }
                guard let found = s[j...].firstIndex(of: stop) else { return false }
                j = found
            case UInt8(ascii: "?"):
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
}
