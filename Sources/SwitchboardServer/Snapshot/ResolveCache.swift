import Atomics
import SwitchboardCore
import SwitchboardHTTP
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finished answers of `GET /resolve` for one snapshot, keyed by the raw query string.
///
/// Deep-link traffic repeats itself (a campaign link is opened by thousands of people), and an
/// answer depends only on the snapshot, the URL and — when the snapshot says so — the asking
/// app. Each ``Snapshot`` owns its cache, so a reload or an admin change starts from an empty
/// one and a stale answer cannot be served.
///
/// What is cached and when:
/// - the key is the raw query string exactly as sent (`url=…&platform=…`); a differently
///   encoded URL is another key;
/// - when rules or routes look at the asking app (see ``Resolver/ContextDependence``), the
///   `X-App-Platform`, `X-App-Version` and `X-Device-Id` headers join the key;
/// - when a rule has a time window (`activeFrom`/`activeUntil`), nothing is cached;
/// - `explain` answers, errors and bodies over ``maximumBodyBytes`` are not cached;
/// - an answer is stored the second time its key misses (see ``admits(_:)``): most deep links
///   carry a click id and are never asked again, and storing each of them would cost an entry,
///   its allocations and a shard lock for nothing;
/// - for the same reason a key is looked up only when it was asked or stored before (its hash
///   is in the slots ``admits(_:)`` keeps): a link asked for the first time takes no shard lock
///   and no dictionary probe. Those slots are approximate, so a stored answer whose slot another
///   key took is missed once, answered afresh (the same bytes), and found again from then on.
///
/// Memory is bounded by a byte budget split over shards; a full shard is emptied and refills
/// with what is asked next (cheap, and hot links come back at once). Lookups lock one shard of
/// sixteen, so threads rarely meet.
final class ResolveCache: Sendable {
    /// A cached answer, with what the metrics must still count on every hit.
    struct Answer: Sendable {
        let status: Int
        let body: [UInt8]
        let routeID: String?
        let firedRuleIDs: [String]
    }

    /// The raw query plus, when answers depend on the asking app, its headers. Hashed once:
    /// the hash picks the shard and is what the shard's dictionary hashes.
    ///
    /// Compared and hashed by their UTF-8 bytes, not as `String`s: two spellings `String`
    /// deems equal (`é` and `e` with a combining accent) are different URLs to the resolver,
    /// which reads bytes, and may get different answers.
    struct Key: Hashable, Sendable {
        let query: String
        let appHeaders: [String?]
        let hash: Int

        init(query: String, appHeaders: [String?]) {
            self.query = query
            self.appHeaders = appHeaders
            var hasher = Hasher()
            Self.combine(query, into: &hasher)
            for header in appHeaders {
                hasher.combine(header != nil)
                if let header { Self.combine(header, into: &hasher) }
            }
            hash = hasher.finalize()
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.hash == rhs.hash && sameBytes(lhs.query, rhs.query) && lhs.appHeaders.count == rhs.appHeaders.count
                && zip(lhs.appHeaders, rhs.appHeaders).allSatisfy { left, right in
                    switch (left, right) {
                    case (nil, nil): return true
                    case (let left?, let right?): return sameBytes(left, right)
                    default: return false
                    }
                }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }

        /// `text`'s length and UTF-8 bytes (the length keeps `["ab", "c"]` apart from `["a", "bc"]`),
        /// in one call whether or not the string's bytes are contiguous, so that equal keys hash
        /// alike.
        private static func combine(_ text: String, into hasher: inout Hasher) {
            hasher.combine(text.utf8.count)
            let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            if hashed == nil {
                var contiguous = text
                contiguous.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            }
        }

        /// Whether two strings have the same UTF-8 bytes (`memcmp` over contiguous storage; a
        /// byte loop cost thousands of instructions per cache hit).
        private static func sameBytes(_ left: String, _ right: String) -> Bool {
            guard left.utf8.count == right.utf8.count else { return false }
            let compared = left.utf8.withContiguousStorageIfAvailable { leftBytes in
                right.utf8.withContiguousStorageIfAvailable { rightBytes in
                    leftBytes.isEmpty || memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, leftBytes.count) == 0
                }
            }
            return (compared ?? nil) ?? left.utf8.elementsEqual(right.utf8)
        }
    }

    /// Larger bodies are not cached (they come from very long URLs, rarely repeated).
    static let maximumBodyBytes = 4 * 1024
    /// Bookkeeping charged per entry on top of its key and body (dictionary slot, the answer's
    /// ids).
    private static let entryOverheadBytes = 256
    private static let shardCount = 16

    private struct Shard: ~Copyable {
        var answers: [Key: Answer] = [:]
        var bytes = 0
    }

    private final class ShardBox: Sendable {
        let shard = Mutex(Shard())
    }

    /// Whether this snapshot's answers may be cached at all.
    let isEnabled: Bool
    /// Whether the asking app's headers are part of the key.
    let keysOnAppHeaders: Bool
    private let shardBudgetBytes: Int
    private let shards: [ShardBox]
    /// The keys that missed once, by hash: slot `hash % count` holds the hash (made odd, so
    /// that 0 means empty) of the last key that missed there. Lock-free and approximate: two
    /// keys sharing a slot displace each other, which only delays storing one of them.
    private let missedOnce: AtomicSlots
    /// Slots of ``missedOnce``.
    static let missedOnceSlots = 1 << 16

    /// Slots read and written only through atomics, owned by the cache.
    private struct AtomicSlots: @unchecked Sendable {
        let base: UnsafeMutablePointer<UnsafeAtomic<Int>.Storage>
    }

    /// - Parameters:
    ///   - budgetBytes: the most memory the cache may hold (0 disables it).
    ///   - dependence: what the snapshot's answers depend on besides the URL.
    init(budgetBytes: Int, dependence: Resolver.ContextDependence) {
        // Rules with a time window leave the cache on: an answer that tried one is not kept
        // (``ResolveSummary/isRepeatable``), and every other answer is the same at any time.
        isEnabled = budgetBytes > 0
        keysOnAppHeaders = dependence.app
        shardBudgetBytes = max(0, budgetBytes) / Self.shardCount
        shards = isEnabled ? (0..<Self.shardCount).map { _ in ShardBox() } : []
        let slots = isEnabled ? Self.missedOnceSlots : 1
        let base = UnsafeMutablePointer<UnsafeAtomic<Int>.Storage>.allocate(capacity: slots)
        base.initialize(repeating: UnsafeAtomic<Int>.Storage(0), count: slots)
        missedOnce = AtomicSlots(base: base)
    }

    deinit {
        missedOnce.base.deinitialize(count: isEnabled ? Self.missedOnceSlots : 1)
        missedOnce.base.deallocate()
    }

    /// Whether the answer for `key`, which just missed, should be stored: `true` when the same
    /// key missed before, else `false` (and this miss is remembered by the key's hash).
    func admits(_ key: Key) -> Bool {
        guard isEnabled else { return false }
        let slot = missedOnceSlot(of: key)
        if slot.load(ordering: .relaxed) == Self.mark(of: key) { return true }
        slot.store(Self.mark(of: key), ordering: .relaxed)
        return false
    }

    /// The slot of ``missedOnce`` that remembers `key`.
    private func missedOnceSlot(of key: Key) -> UnsafeAtomic<Int> {
        UnsafeAtomic<Int>(at: missedOnce.base + Int(UInt(bitPattern: key.hash) % UInt(Self.missedOnceSlots)))
    }

    /// What ``missedOnce`` holds for `key`: its hash, made odd so that it is never the empty 0.
    private static func mark(of key: Key) -> Int { key.hash | 1 }

    /// The key of a request, or `nil` when its answer must not be cached.
    func key(for request: HTTPRequest) -> Key? {
        guard isEnabled, let query = request.query else { return nil }
        guard keysOnAppHeaders else { return Key(query: query, appHeaders: []) }
        return Key(
            query: query,
            appHeaders: [request.header("X-App-Platform"), request.header("X-App-Version"), request.header("X-Device-Id")])
    }

    /// The cached answer for `key`, if any; `nil` without a lookup for a key not asked or stored
    /// before.
    func answer(for key: Key) -> Answer? {
        guard isEnabled, missedOnceSlot(of: key).load(ordering: .relaxed) == Self.mark(of: key) else { return nil }
        return shards[shardIndex(of: key)].shard.withLock { $0.answers[key] }
    }

    /// Remembers `answer` for `key` (ignored when the body is too large for the cache).
    func store(_ answer: Answer, for key: Key) {
        guard isEnabled, answer.body.count <= Self.maximumBodyBytes else { return }
        let cost = key.query.utf8.count + answer.body.count + Self.entryOverheadBytes
        guard cost <= shardBudgetBytes else { return }
        missedOnceSlot(of: key).store(Self.mark(of: key), ordering: .relaxed)
        shards[shardIndex(of: key)].shard.withLock { shard in
            if shard.bytes + cost > shardBudgetBytes {
                shard.answers.removeAll(keepingCapacity: true)
                shard.bytes = 0
            }
            if shard.answers.updateValue(answer, forKey: key) == nil { shard.bytes += cost }
        }
    }

    /// Entries held now (all shards), for tests and diagnostics.
    var count: Int {
        shards.reduce(0) { total, box in total + box.shard.withLock { $0.answers.count } }
    }

    private func shardIndex(of key: Key) -> Int {
        Int(UInt(bitPattern: key.hash) % UInt(Self.shardCount))
    }
}
