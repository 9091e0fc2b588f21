/// An app version, `MAJOR[.MINOR[.PATCH]][-PRERELEASE]`: missing parts are 0, and a
/// pre-release sorts before its release (`5.2.0-beta < 5.2.0`). Pre-releases compare as
/// SemVer 2.0.0 §11 says, identifier by identifier between the dots: numbers as numbers
/// (`rc.2 < rc.10`), below words, words as ASCII text, and a shorter list first when it is a
/// prefix of the longer (`alpha < alpha.1`).
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The first number.
    public let major: Int
    /// The second number (0 when absent).
    public let minor: Int
    /// The third number (0 when absent).
    public let patch: Int
    /// The part after `-`, or `nil`.
    public let prerelease: String?

    /// Parses a version; `nil` when it is not one (e.g. `5.x`, `""`, `1.2.3.4`).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let core = parts.first else { return nil }
        let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(numbers.count) else { return nil }
        var values: [Int] = []
        for number in numbers {
            guard !number.isEmpty, number.count <= 9, number.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(number)
            else { return nil }
            values.append(value)
        }
        while values.count < 3 { values.append(0) }
        major = values[0]
        minor = values[1]
        patch = values[2]
        if parts.count == 2 {
            guard !parts[1].isEmpty else { return nil }
            prerelease = String(parts[1])
        } else {
            prerelease = nil
        }
    }

    public var description: String {
        "\(major).\(minor).\(patch)" + (prerelease.map { "-\($0)" } ?? "")
    }

    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if (lhs.major, lhs.minor, lhs.patch) != (rhs.major, rhs.minor, rhs.patch) {
            return (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
        switch (lhs.prerelease, rhs.prerelease) {
        case (nil, _): return false
        case (_?, nil): return true
        case (let left?, let right?): return precedes(left, right)
        }
    }

    /// Whether pre-release `left` sorts before `right` (SemVer 2.0.0 §11). Numbers equal in
    /// value but written differently (`01`, `1`) fall back to their text, so that the order
    /// agrees with `==`.
    private static func precedes(_ left: String, _ right: String) -> Bool {
        let leftIdentifiers = left.split(separator: ".", omittingEmptySubsequences: false)
        let rightIdentifiers = right.split(separator: ".", omittingEmptySubsequences: false)
        for (leftIdentifier, rightIdentifier) in zip(leftIdentifiers, rightIdentifiers) where leftIdentifier != rightIdentifier {
            switch (number(leftIdentifier), number(rightIdentifier)) {
            case (let leftNumber?, let rightNumber?):
                return leftNumber != rightNumber ? leftNumber < rightNumber : leftIdentifier < rightIdentifier
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil): return leftIdentifier.utf8.lexicographicallyPrecedes(rightIdentifier.utf8)
            }
        }
        return leftIdentifiers.count < rightIdentifiers.count
    }

    /// The value of an identifier made of digits only (`nil` for a word, or a number too long
    /// for an integer, which then compares as text).
    private static func number(_ identifier: Substring) -> UInt64? {
        guard !identifier.isEmpty, identifier.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return UInt64(identifier)
    }
}

/// A version range: comparators separated by spaces, all of which must hold, e.g.
/// `>=5.2.0 <6`. A comparator is `>=`, `>`, `<=`, `<` or `=` (or none, meaning `=`) followed
/// by a ``SemanticVersion``.
public struct VersionRange: Sendable, Hashable, CustomStringConvertible {
    enum Operator: String, Sendable, Hashable {
        case greaterOrEqual = ">=", greater = ">", lessOrEqual = "<=", less = "<", equal = "="
    }

    let comparators: [(op: Operator, version: SemanticVersion)]
    /// The range as written.
    public let text: String

    /// Parses a range.
    /// - Throws: a message naming the comparator that is not one.
    public init(_ text: String) throws(ConditionError) {
        self.text = text
        var comparators: [(op: Operator, version: SemanticVersion)] = []
        for token in text.split(separator: " ") {
            var rest = Substring(token)
            var op = Operator.equal
            for candidate in [Operator.greaterOrEqual, .lessOrEqual, .greater, .less, .equal]
            where rest.hasPrefix(candidate.rawValue) {
                op = candidate
                rest = rest.dropFirst(candidate.rawValue.count)
                break
            }
            guard let version = SemanticVersion(String(rest)) else {
                throw ConditionError(
                    message: "'\(token)' in appVersion '\(text)' is not a comparator such as >=5.2.0 or <6")
            }
            comparators.append((op, version))
        }
        guard !comparators.isEmpty else {
            throw ConditionError(message: "appVersion is empty; write a range such as '>=5.2.0 <6'")
        }
        if let (lower, upper) = Self.emptyBounds(comparators) {
            throw ConditionError(
                message: "appVersion '\(text)' holds for no version: '\(lower)' and '\(upper)' exclude each other")
        }
        self.comparators = comparators
    }

    /// Two comparators that no version satisfies together (the highest lower bound above the
    /// lowest upper bound, or both at one version with either excluding it), or `nil`.
    private static func emptyBounds(_ comparators: [(op: Operator, version: SemanticVersion)]) -> (String, String)? {
        typealias Bound = (version: SemanticVersion, isStrict: Bool, text: String)
        var lower: Bound?
        var upper: Bound?
        for (op, version) in comparators {
            let text = op.rawValue + version.description
            if op == .greaterOrEqual || op == .greater || op == .equal {
                let bound = (version, op == .greater, text)
                if let current = lower, current.version > version || (current.version == version && current.isStrict) { continue }
                lower = bound
            }
            if op == .lessOrEqual || op == .less || op == .equal {
                let bound = (version, op == .less, text)
                if let current = upper, current.version < version || (current.version == version && current.isStrict) { continue }
                upper = bound
            }
        }
        guard let lower, let upper else { return nil }
        if lower.version > upper.version || (lower.version == upper.version && (lower.isStrict || upper.isStrict)) {
            return (lower.text, upper.text)
        }
        return nil
    }

    public var description: String { text }

    /// Whether `version` is in the range.
    public func contains(_ version: SemanticVersion) -> Bool {
        comparators.allSatisfy { comparator in
            switch comparator.op {
            case .greaterOrEqual: version >= comparator.version
            case .greater: version > comparator.version
            case .lessOrEqual: version <= comparator.version
            case .less: version < comparator.version
            case .equal: version == comparator.version
            }
        }
    }

    public static func == (lhs: VersionRange, rhs: VersionRange) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// Why a condition (`when` of a rule, `minAppVersion` of a route) is invalid.
public struct ConditionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, quoting the text.
    public let message: String
    public var description: String { message }
}
