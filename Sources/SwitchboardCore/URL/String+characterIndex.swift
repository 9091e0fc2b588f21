extension String {
    /// The 0-based index, in characters, of the character that contains the UTF-8 byte at
    /// `offset`; the character count when `offset` is at or past the end.
    ///
    /// Linear in the length of the prefix: used only to report errors, never on the hot path.
    func characterIndex(ofUTF8Offset offset: Int) -> Int {
        var count = 0
        var index = startIndex
        while index < endIndex {
            let next = self.index(after: index)
            if utf8.distance(from: utf8.startIndex, to: next) > offset {
                return count
            }
            count += 1
            index = next
        }
        return count
    }
}
