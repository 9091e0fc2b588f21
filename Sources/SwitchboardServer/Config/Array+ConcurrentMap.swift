import Dispatch
import Synchronization

extension Array where Element: Sendable {
    /// `map(transform)` with the elements shared out among the cores (libdispatch's
    /// `concurrentPerform`, in which the calling thread takes part), the costliest first so
    /// that a large one does not start last. The results keep the order of the elements.
    ///
    /// ```swift
    /// let decoded = files.concurrentMap(cost: \.byteCount) { decode($0) }
    /// ```
    func concurrentMap<Result: Sendable>(
        cost: (Element) -> Int, _ transform: @Sendable (Element) -> Result
    ) -> [Result] {
        guard count > 1 else { return map(transform) }
        let costs = map(cost)
        let order = indices.sorted { costs[$0] > costs[$1] }
        let results = Mutex<[Result?]>(Array<Result?>(repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { turn in
            let index = order[turn]
            let result = transform(self[index])
            results.withLock { $0[index] = result }
        }
        return results.withLock { results in results.map { $0! } }
    }
}
