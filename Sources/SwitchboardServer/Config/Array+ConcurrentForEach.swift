import Dispatch

extension Array where Element: Sendable {
    /// Calls `body` with every element, the elements shared out among the cores (libdispatch's
    /// `concurrentPerform`, in which the calling thread takes part), the costliest first so
    /// that a large one does not start last. Returns when every call has returned.
    ///
    /// ```swift
    /// files.concurrentForEach(cost: \.byteCount) { decode($0) }
    /// ```
    func concurrentForEach(cost: (Element) -> Int, _ body: @Sendable (Element) -> Void) {
        guard count > 1 else {
            forEach(body)
            return
        }
        let costs = map(cost)
        let order = indices.sorted { costs[$0] > costs[$1] }
        DispatchQueue.concurrentPerform(iterations: count) { turn in
            body(self[order[turn]])
        }
    }
}
