/// The most frequent unmatched links of one bucket, in a fixed number of entries whatever
/// the traffic: the space-saving sketch (Metwally, Agrawal and El Abbadi, 2005).
///
/// A link already held adds to its count; a new link takes a free entry, or else replaces
/// the entry with the smallest count and starts from that count (the replaced link may have
/// been asked that often: `error` keeps by how much a count may be too high). A link asked
/// more often than `total / capacity` times is always held.
package struct OrphanSketch: Sendable, Hashable {
    /// A held link's count, and by how much it may exceed the link's true count.
    package struct Entry: Sendable, Hashable {
        package var count: Int
        package var error: Int
    }

    /// The most links held.
    package let capacity: Int
    package private(set) var entries: [String: Entry] = [:]

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Counts `link` `count` more times.
    package mutating func add(_ link: String, count: Int = 1) {
        guard count > 0 else { return }
        if entries[link] != nil {
            entries[link]?.count += count
            return
        }
        guard entries.count >= capacity else {
            entries[link] = Entry(count: count, error: 0)
            return
        }
        // Linear in the capacity (a few hundred at most): this runs off the request path.
        guard let smallest = entries.min(by: { ($0.value.count, $0.key) < ($1.value.count, $1.key) }) else { return }
        entries[smallest.key] = nil
        entries[link] = Entry(count: smallest.value.count + count, error: smallest.value.count)
    }

    /// Adds every entry of `other` (as many counts as it holds).
    package mutating func merge(_ other: OrphanSketch) {
        for (link, entry) in other.entries.sorted(by: { $0.key < $1.key }) { add(link, count: entry.count) }
    }
}
