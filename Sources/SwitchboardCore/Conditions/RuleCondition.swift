/// The optional `when` of a rewrite rule: every condition given must hold for the rule to run
/// (they are checked before its regex).
///
/// ```yaml
/// when:
///   platform: [ios, android]                  # the request's platform is one of these
///   appVersion: ">=5.2.0 <6"                  # the request's app version is in this range
///   activeFrom: "2026-11-11T00:00:00+08:00"   # from this instant (inclusive), RFC 3339
///   activeUntil: "2026-11-12T00:00:00+08:00"  # until this instant (exclusive)
///   percent: 10                               # 10 % of devices, stable per device and rule
/// ```
///
/// A condition on something the request does not say (no platform, no app version, no device
/// id for `0 < percent < 100`) does not hold. The rollout bucket is
/// `fmix64(FNV-1a-64(deviceID + "\u{1F}" + ruleID)) % 10000`, and the rule applies when the bucket is
/// below `percent × 100`: one device always gets the same answer, and the buckets of
/// different rules are independent.
public struct RuleCondition: Codable, Sendable, Hashable {
    /// The platforms a `platform` condition may name.
    public static let platforms: Set<String> = ["ios", "android", "web"]

    /// The platforms the rule runs for (see ``platforms``); `nil`: any.
    public var platform: [String]?
    /// The range of app versions the rule runs for (a ``VersionRange``, `">=5.2.0 <6"`); `nil`: any.
    public var appVersion: String?
    /// The RFC 3339 instant from which the rule runs (inclusive); `nil`: always has.
    public var activeFrom: String?
    /// The RFC 3339 instant at which the rule stops running (exclusive); `nil`: never does.
    public var activeUntil: String?
    /// The share of devices the rule runs for, 0–100, stable per device and rule; `nil`: all.
    public var percent: Double?

    /// A condition of the given parts; `nil` parts always hold.
    public init(
        platform: [String]? = nil, appVersion: String? = nil, activeFrom: String? = nil, activeUntil: String? = nil,
        percent: Double? = nil
    ) {
        self.platform = platform
        self.appVersion = appVersion
        self.activeFrom = activeFrom
        self.activeUntil = activeUntil
        self.percent = percent
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case platform, appVersion, activeFrom, activeUntil, percent
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        platform = try container.decodeIfPresent([String].self, forKey: .platform)
        appVersion = try container.decodeIfPresent(String.self, forKey: .appVersion)
        activeFrom = try container.decodeIfPresent(String.self, forKey: .activeFrom)
        activeUntil = try container.decodeIfPresent(String.self, forKey: .activeUntil)
        percent = try container.decodeIfPresent(Double.self, forKey: .percent)
    }

    /// Validates and compiles the condition.
    /// - Throws: ``ConditionError`` naming the field and what is wrong.
    func compiled() throws(ConditionError) -> CompiledCondition {
        var compiled = CompiledCondition()
        if let platform {
            guard !platform.isEmpty else { throw ConditionError(message: "platform is empty; list ios, android or web") }
            for name in platform where !Self.platforms.contains(name.lowercased()) {
                throw ConditionError(message: "platform '\(name)' is not one of ios, android, web")
            }
            compiled.platforms = Set(platform.map { $0.lowercased() })
        }
        if let appVersion { compiled.versions = try VersionRange(appVersion) }
        if let activeFrom {
            guard let seconds = RFC3339.seconds(activeFrom) else {
                throw ConditionError(message: "activeFrom '\(activeFrom)' is not an RFC 3339 date-time such as 2026-11-11T00:00:00+08:00")
            }
            compiled.from = seconds
        }
        if let activeUntil {
            guard let seconds = RFC3339.seconds(activeUntil) else {
                throw ConditionError(message: "activeUntil '\(activeUntil)' is not an RFC 3339 date-time such as 2026-11-12T00:00:00Z")
            }
            compiled.until = seconds
        }
        if let from = compiled.from, let until = compiled.until, until <= from {
            throw ConditionError(message: "activeUntil must be after activeFrom")
        }
        if let percent {
            guard percent.isFinite, (0...100).contains(percent) else {
                throw ConditionError(message: "percent must be between 0 and 100")
            }
            compiled.basisPoints = Int((percent * 100).rounded())
        }
        return compiled
    }
}

/// A validated ``RuleCondition``.
struct CompiledCondition: Sendable {
    var platforms: Set<String>?
    var versions: VersionRange?
    var from: Double?
    var until: Double?
    /// `percent × 100`, 0…10000.
    var basisPoints: Int?

    /// Whether the condition reads the clock (`activeFrom`/`activeUntil`).
    var hasTimeWindow: Bool { from != nil || until != nil }

    /// Whether the rule `ruleID` applies to a request.
    func holds(_ context: RequestContext, ruleID: String) -> Bool {
        if let platforms {
            guard let platform = context.platform, platforms.contains(platform) else { return false }
        }
        if let versions {
            guard let version = context.appVersion, versions.contains(version) else { return false }
        }
        if from != nil || until != nil {
            guard let now = context.now else { return false }
            if let from, now < from { return false }
            if let until, now >= until { return false }
        }
        if let basisPoints, basisPoints < 10_000 {
            guard basisPoints > 0, let device = context.deviceID else { return false }
            return Self.bucket(deviceID: device, ruleID: ruleID) < basisPoints
        }
        return true
    }

    /// Each condition of the rule and whether it holds for a request, with why, in the order
    /// of ``holds(_:ruleID:)`` (for `explain`): it holds exactly when every verdict does.
    func verdicts(_ context: RequestContext, ruleID: String) -> [(condition: String, held: Bool, why: String)] {
        var verdicts: [(condition: String, held: Bool, why: String)] = []
        if let platforms {
            let asked = "platform \(platforms.sorted().joined(separator: "|"))"
            if let platform = context.platform {
                verdicts.append((asked, platforms.contains(platform), "the request's platform is \(platform)"))
            } else {
                verdicts.append((asked, false, "the request gives no platform"))
            }
        }
        if let versions {
            let asked = "appVersion \(versions)"
            if let version = context.appVersion {
                verdicts.append((asked, versions.contains(version), "the request's app version is \(version)"))
            } else {
                verdicts.append((asked, false, "the request gives no app version"))
            }
        }
        if from != nil || until != nil {
            let asked =
                "active "
                + [from.map { "from \(RFC3339.string($0))" }, until.map { "until \(RFC3339.string($0))" }]
                .compactMap { $0 }.joined(separator: " ")
            if let now = context.now {
                let held = from.map { now >= $0 } ?? true && until.map { now < $0 } ?? true
                verdicts.append((asked, held, "the request's time is \(RFC3339.string(now))"))
            } else {
                verdicts.append((asked, false, "the request has no time"))
            }
        }
        if let basisPoints, basisPoints < 10_000 {
            let asked = "percent \(Double(basisPoints) / 100)"
            if basisPoints > 0, let device = context.deviceID {
                let bucket = Self.bucket(deviceID: device, ruleID: ruleID)
                verdicts.append((asked, bucket < basisPoints, "device \(device) is in bucket \(bucket) of 10000"))
            } else {
                verdicts.append((asked, false, basisPoints == 0 ? "0 % applies to no device" : "the request gives no device"))
            }
        }
        return verdicts
    }

    /// The rollout bucket, 0…9999: FNV-1a (64-bit) of `deviceID`, a 0x1F separator and
    /// `ruleID`, then MurmurHash3's `fmix64` finalizer (FNV-1a alone mixes its last bytes
    /// poorly, so rules whose ids differ only at the end would get correlated buckets).
    static func bucket(deviceID: String, ruleID: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in deviceID.utf8 + [0x1F] + ruleID.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash &*= 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return Int(hash % 10_000)
    }
}

extension RuleCondition {
    /// The condition as written, for listings and `state.json` (keys in declaration order).
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let platform { members.append(("platform", .array(platform.map(JSONValue.string)))) }
        if let appVersion { members.append(("appVersion", .string(appVersion))) }
        if let activeFrom { members.append(("activeFrom", .string(activeFrom))) }
        if let activeUntil { members.append(("activeUntil", .string(activeUntil))) }
        if let percent { members.append(("percent", .number(percent))) }
        return .object(members)
    }
}
