extension Metrics {
    /// The series of `switchboard_http_requests_total` one request counts in.
    struct RequestKey: Hashable {
        var endpoint: String
        var status: Int
    }

    /// What one call of ``Metrics/recordRequest(endpoint:status:seconds:)`` or
    /// ``Metrics/recordResolution(routeID:firedRuleIDs:ruleErrors:limitHits:constraintLimitHits:cache:)``
    /// counts, kept as it came until its batch is folded into the counters.
    enum Record {
        case request(RequestKey, seconds: Double)
        case resolution(ResolutionRecord)
    }

    /// The counts of one resolution.
    struct ResolutionRecord {
        var routeID: String?
        var firedRuleIDs: [String]
        var ruleErrors: Int
        var limitHits: Int
        var constraintLimitHits: Int
        var cache: ResolveCacheResult?
    }

    /// What requests record; one per shard, summed for a scrape.
    ///
    /// A request appends its records to a batch, and the batch is folded into the series once
    /// ``batchCount`` records wait, or when the counters are read. Folded one at a time, every
    /// request would meet the dictionaries' and the histogram's code and memory cold on a loaded
    /// server; in a batch, the records after the first find them warm (BENCHMARKS.md "Eighth
    /// pass"). Every reader folds first, so a scrape sees every record made before it.
    struct RequestCounters {
        /// Records kept before they are folded.
        static let batchCount = 64

        private(set) var requests: [RequestKey: Int] = [:]
        private(set) var latency: [String: Histogram] = [:]
        private(set) var routeHits: [String: Int] = [:]
        private(set) var ruleHits: [String: Int] = [:]
        private(set) var ruleErrors = 0
        private(set) var ruleLimitHits = 0
        private(set) var constraintLimitHits = 0
        private(set) var cacheHits = 0
        private(set) var cacheMisses = 0
        /// Records not folded yet, oldest first.
        private var pending: [Record] = []
        /// Where the last request's series are, found again without hashing while requests
        /// keep coming to the same endpoint with the same status (most do). A dictionary index
        /// stays valid until a key is inserted, and keys are only inserted by ``count(_:seconds:)``,
        /// which then takes the indices afresh.
        private var lastRequest:
            (key: RequestKey, requests: Dictionary<RequestKey, Int>.Index, latency: Dictionary<String, Histogram>.Index)?

        /// Keeps `record` for the next fold, and folds the batch when it is full.
        mutating func append(_ record: Record) {
            if pending.capacity < Self.batchCount { pending.reserveCapacity(Self.batchCount) }
            pending.append(record)
            if pending.count >= Self.batchCount { foldPending() }
        }

        /// Counts every record waiting into the series; readers call it before they read.
        mutating func foldPending() {
            for index in pending.indices {
                switch pending[index] {
                case .request(let key, let seconds): count(key, seconds: seconds)
                case .resolution(let resolution): count(resolution)
                }
            }
            pending.removeAll(keepingCapacity: true)
        }

        /// Counts one answered request and its latency.
        private mutating func count(_ key: RequestKey, seconds: Double) {
            if let last = lastRequest, last.key == key {
                requests.values[last.requests] += 1
                latency.values[last.latency].record(seconds, bounds: Metrics.latencyBuckets)
                return
            }
            requests[key, default: 0] += 1
            latency[key.endpoint, default: Histogram(buckets: Metrics.latencyBuckets.count)]
                .record(seconds, bounds: Metrics.latencyBuckets)
            if let requestsIndex = requests.index(forKey: key), let latencyIndex = latency.index(forKey: key.endpoint) {
                lastRequest = (key, requestsIndex, latencyIndex)
            }
        }

        /// Counts one resolution.
        private mutating func count(_ resolution: ResolutionRecord) {
            if let routeID = resolution.routeID { routeHits[routeID, default: 0] += 1 }
            for rule in resolution.firedRuleIDs { ruleHits[rule, default: 0] += 1 }
            ruleErrors += resolution.ruleErrors
            ruleLimitHits += resolution.limitHits
            constraintLimitHits += resolution.constraintLimitHits
            switch resolution.cache {
            case .hit: cacheHits += 1
            case .miss: cacheMisses += 1
            case nil: break
            }
        }

        /// Adds the series of `other`, whose records must have been folded.
        mutating func add(_ other: RequestCounters) {
            precondition(other.pending.isEmpty, "fold the records before adding the counters")
            foldPending()
            lastRequest = nil  // merging may insert keys
            requests.merge(other.requests, uniquingKeysWith: +)
            for (endpoint, histogram) in other.latency {
                latency[endpoint, default: Histogram(buckets: Metrics.latencyBuckets.count)].add(histogram)
            }
            routeHits.merge(other.routeHits, uniquingKeysWith: +)
            ruleHits.merge(other.ruleHits, uniquingKeysWith: +)
            ruleErrors += other.ruleErrors
            ruleLimitHits += other.ruleLimitHits
            constraintLimitHits += other.constraintLimitHits
            cacheHits += other.cacheHits
            cacheMisses += other.cacheMisses
        }
    }
}
