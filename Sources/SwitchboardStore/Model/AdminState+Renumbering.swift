extension AdminState {
    /// The same rules, routes and history at `version`, with every history entry moved by as
    /// many versions, so that the history still ends at the current version and has no gap:
    /// ``content(atVersion:)`` undoes the changes from the current version down, entry by
    /// entry, and finds none when the entries keep their old numbers.
    ///
    /// A rollback entry's `rollbackTo` moves too, except 0, which always means the empty state.
    ///
    /// - Parameter version: the new version; the copy of a state into a store that is already
    ///   at or past the state's version takes the version after the store's.
    package func renumbered(toVersion version: Int) -> AdminState {
        let shift = version - self.version
        var renumbered = self
        renumbered.version = version
        for index in renumbered.history.indices {
            renumbered.history[index].version += shift
            if let restored = renumbered.history[index].rollbackTo, restored > 0 {
                renumbered.history[index].rollbackTo = restored + shift
            }
        }
        return renumbered
    }
}
