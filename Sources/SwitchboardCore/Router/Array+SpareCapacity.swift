extension Array {
    /// This array, copied into storage of its own size when more than an eighth of its capacity
    /// is unused (tables that grew by doubling, kept for the life of a router).
    func withoutSpareCapacity() -> [Element] {
        guard capacity > count + count / 8 else { return self }
        return withUnsafeBufferPointer { Array($0) }
    }
}
