extension Metrics {
    /// Counts of observations by upper bound, with their sum, as Prometheus histograms expose
    /// them (the exposition makes the counts cumulative).
    struct Histogram {
        /// Observations per bucket: index `i` counts those at most `bounds[i]` and above the
        /// bound before it.
        var counts: [Int]
        var sum = 0.0
        var total = 0

        init(buckets: Int) {
            counts = [Int](repeating: 0, count: buckets)
        }

        /// Counts one observation; one above the last bound is counted in `total` (`+Inf`) only.
        mutating func record(_ seconds: Double, bounds: [Double]) {
            if let bucket = bounds.firstIndex(where: { seconds <= $0 }) { counts[bucket] += 1 }
            sum += seconds
            total += 1
        }

        mutating func add(_ other: Histogram) {
            for index in counts.indices { counts[index] += other.counts[index] }
            sum += other.sum
            total += other.total
        }
    }
}
