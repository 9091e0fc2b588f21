/// An app version, `MAJOR[.MINOR[.PATCH]][-PRERELEASE]`: missing parts are 0, and a
/// pre-release sorts before its release (`5.2.0-beta < 5.2.0`); pre-releases compare as text.
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
        case (let left?, let right?): return left < right
        }
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
        self.comparators = comparators
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
