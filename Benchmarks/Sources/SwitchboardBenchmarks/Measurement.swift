import CMallocCounter
import Glibc

/// Timing and allocation counting for the suites: medians over rounds, never a single run.
enum Measurement {
    /// Nanoseconds on the monotonic clock.
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Median nanoseconds per operation of `pass`, which performs `operationsPerPass`
    /// operations. Each round repeats `pass` until it has run for at least 20 ms.
    static func medianNanoseconds(rounds: Int, operationsPerPass: Int, _ pass: () -> Void) -> Double {
        pass()  // warm up caches and lazy initialisation
        var samples: [Double] = []
        for _ in 0..<rounds {
            var passes = 0
            let start = now()
            var elapsed: UInt64 = 0
            repeat {
                pass()
                passes += 1
                elapsed = now() - start
            } while elapsed < 20_000_000
            samples.append(Double(elapsed) / Double(passes * operationsPerPass))
        }
        return median(samples)
    }

    /// Allocation calls per operation made by one run of `pass` (after a warm-up run).
    static func allocationsPerOperation(operationsPerPass: Int, _ pass: () -> Void) -> Double {
        pass()
        let before = switchboard_allocation_count()
        pass()
        return Double(switchboard_allocation_count() - before) / Double(operationsPerPass)
    }

    /// Bytes of heap in use now.
    static func heapInUse() -> Int { Int(switchboard_heap_in_use()) }

    /// The median of a non-empty list.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

/// Keeps results alive so the optimiser cannot drop the measured work.
struct Sink {
    private(set) var checksum = 0
    mutating func consume(_ value: Int) { checksum &+= value }
}
