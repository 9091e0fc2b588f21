import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Says which requests the traffic sample takes: one in ``every``, counted per worker thread.
///
/// This runs on every `GET /resolve`, so it takes no lock and shares no cache line between
/// threads: each thread counts on its own counter (a hash of its thread id picks one of
/// ``shardCount``, each padded to a cache line of its own), with one relaxed atomic add.
final class SampleTicker: Sendable {
    /// One counter, padded so that two counters never share a cache line.
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    }

    /// Counters; a power of two, about the number of worker threads.
    static let shardCount = 16

    /// One request in `every` is taken.
    let every: Int
    private let counters: [Counter]

    init(every: Int) {
        self.every = max(1, every)
        counters = (0..<Self.shardCount).map { _ in Counter() }
    }

    /// Whether the calling request is one the sample takes.
    @inline(__always)
    func tick() -> Bool {
        if every == 1 { return true }
        #if canImport(Glibc)
            let thread = UInt(pthread_self())
        #else
            let thread = UInt(bitPattern: pthread_self())
        #endif
        let shard = Int(((thread &* 0x9E37_79B9_7F4A_7C15) >> 32) & UInt(Self.shardCount - 1))
        return counters[shard].value.wrappingAdd(1, ordering: .relaxed).newValue % every == 0
    }
}
