/// The kept requests of the traffic sample, oldest first, bounded in entries and in bytes:
/// appending to a full ring drops the oldest requests until the new one fits. The slots grow
/// as requests arrive, so an idle server's sample takes no memory.
struct TrafficSampleRing {
    /// What one entry costs beyond its text: its slot and the heap header of its URL's storage.
    static let entryOverheadBytes = 64

    /// The most entries kept.
    let capacity: Int
    /// The most bytes the entries may take (``SampledRequest/bytes`` summed).
    let maxBytes: Int
    private var slots: [SampledRequest?] = []
    /// The slot of the oldest entry.
    private var oldest = 0
    /// How many entries are kept.
    private(set) var count = 0
    /// What the kept entries take, in bytes.
    private(set) var bytes = 0
    /// How many requests were appended since the start (kept or since dropped).
    private(set) var appended = 0

    init(capacity: Int, maxBytes: Int) {
        self.capacity = capacity
        self.maxBytes = maxBytes
    }

    /// Keeps `request` as the newest entry, dropping the oldest ones while the ring is full or
    /// over its byte budget. A request larger than the whole budget is not kept.
    mutating func append(_ request: SampledRequest) {
        let cost = request.bytes
        guard capacity > 0, cost <= maxBytes else { return }
        while count > 0, count == capacity || bytes + cost > maxBytes {
            dropOldest()
        }
        // Slots are only appended at the end until there are `capacity` of them, so the
        // newest slot is at most one past the last.
        let position = oldest + count
        if position == slots.count, slots.count < capacity {
            slots.append(request)
        } else {
            slots[position % capacity] = request
        }
        count += 1
        bytes += cost
        appended += 1
    }

    /// The kept requests, oldest first.
    var requests: [SampledRequest] {
        var out: [SampledRequest] = []
        out.reserveCapacity(count)
        for offset in 0..<count {
            if let request = slots[(oldest + offset) % max(slots.count, 1)] { out.append(request) }
        }
        return out
    }

    private mutating func dropOldest() {
        if let request = slots[oldest] { bytes -= request.bytes }
        slots[oldest] = nil
        oldest = (oldest + 1) % capacity
        count -= 1
    }
}
