import Testing

@testable import SwitchboardStore

/// A state copied into a store that is already past its version keeps a history that every
/// listed version can be rebuilt from.
struct AdminStateRenumberingTests {
    @Test func theHistoryMovesWithTheVersionAndStillRebuildsEveryVersion() throws {
        let states = ChangeLogTests.changes()
        let original = try #require(states.last)
        let moved = original.renumbered(toVersion: original.version + 10)
        #expect(moved.version == original.version + 10)
        #expect(moved.history.map(\.version) == original.history.map { $0.version + 10 })
        #expect(moved.history.last?.rollbackTo == states[1].version + 10)
        for state in states {
            let content = try #require(moved.content(atVersion: state.version + 10))
            #expect(content.rules == state.rules && content.routes == state.routes)
        }
    }
}
