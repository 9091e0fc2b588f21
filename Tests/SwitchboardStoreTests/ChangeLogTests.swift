import Foundation
import SwitchboardCore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardStore

/// The file store's change log next to its snapshot: a write costs what the change costs, a
/// crash leaves the old or the new state, and a `state.json` of earlier versions is read and
/// migrated.
struct ChangeLogTests {
    typealias W = AdminWrites

    /// A sequence of every kind of change, as the server makes them.
    static func changes(from start: AdminState = AdminState(), keep: Int = 100, replacing: Bool = true) -> [AdminState] {
        var states: [AdminState] = []
        var state = start
        func push(_ action: String, rollbackTo: Int? = nil, _ edit: (inout [RewriteRule], inout [AdminRoute]) -> Void) {
            state = W.next(state, action: action, rollbackTo: rollbackTo, keep: keep, edit)
            states.append(state)
        }
        push("rules.add") { rules, _ in rules += (0..<5).map { W.rule("r\($0)") } }
        push("routes.add") { _, routes in routes += [W.route("a"), W.route("b")] }
        push("rules.delete") { rules, _ in rules.remove(at: 2) }
        if replacing {
            push("rules.replace") { rules, _ in rules = [W.rule("r0", "shopapp://other"), W.rule("x"), W.rule("r4")] }
        }
        push("routes.delete") { _, routes in routes.removeFirst() }
        push("rules.add") { rules, _ in rules.append(W.rule("y")) }
        let restored = states[1]
        push("rollback", rollbackTo: restored.version) { rules, routes in (rules, routes) = (restored.rules, restored.routes) }
        return states
    }

    @Test func everyWriteAfterTheFirstAppendsOnlyItsChangeAndLoadsBackExactly() throws {
        let directory = try TemporaryDirectory()
        let store = FileAdminStore(directory: directory.path)
        var state = W.next(AdminState()) { rules, _ in rules = (0..<2_000).map { W.rule("bulk\($0)") } }
        try store.commit(state, replacing: 0)
        let snapshot = try Data(contentsOf: URL(fileURLWithPath: store.path))
        var logSize = 0
        // Replacing every rule is a change of every rule; the others touch a few.
        for expected in Self.changes(from: state, replacing: false) {
            try store.commit(expected, replacing: state.version)
            state = expected
            let size = try FileManager.default.attributesOfItem(atPath: store.logPath)[.size] as? Int ?? 0
            // A change of a few items, not the 2,000 rules or the history.
            #expect(size - logSize < 2_048, "version \(expected.version) appended \(size - logSize) bytes")
            logSize = size
            #expect(try FileAdminStore(directory: directory.path).load() == expected)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == snapshot)
        #expect(try Set(directory.contents()) == ["state.json", "state.log"])
    }

    @Test func rollbackContentOfEveryVersionInTheHistoryIsExactlyThatVersionsState() throws {
        let states = Self.changes()
        let last = try #require(states.last)
        for state in states {
            let content = try #require(last.content(atVersion: state.version), "version \(state.version)")
            #expect(content.rules == state.rules && content.routes == state.routes)
        }
        #expect(last.content(atVersion: 0).map { $0.rules.isEmpty && $0.routes.isEmpty } == true)
        #expect(last.content(atVersion: last.version + 1) == nil)
        // Bounded: the versions whose entries were dropped cannot be restored.
        let bounded = try #require(Self.changes(keep: 3).last)
        #expect(bounded.history.map(\.version) == [5, 6, 7])
        #expect(bounded.content(atVersion: 4) == nil)
        #expect(bounded.content(atVersion: 5)?.rules == states[4].rules)
    }

    /// A store in a new directory with the first `count` of ``changes(from:keep:replacing:)``
    /// committed one after the other (the first as the snapshot, the rest in the log).
    static func storeWithChanges(_ count: Int) throws -> (TemporaryDirectory, FileAdminStore, [AdminState]) {
        let directory = try TemporaryDirectory()
        let store = FileAdminStore(directory: directory.path)
        let states = changes()
        var previous = 0
        for state in states.prefix(count) {
            try store.commit(state, replacing: previous)
            previous = state.version
        }
        return (directory, store, states)
    }

    @Test func aTornTailIsDroppedAndCutOffAtTheNextWrite() throws {
        let (directory, store, states) = try Self.storeWithChanges(4)
        let whole = try Data(contentsOf: URL(fileURLWithPath: store.logPath))
        // Every prefix of the last record, and garbage after a power loss, is a torn tail.
        let lastRecordStart = try #require(whole.dropLast().lastIndex(of: UInt8(ascii: "\n"))) + 1
        for cut in [lastRecordStart + 1, lastRecordStart + 12, whole.count - 1] {
            try whole.prefix(cut).write(to: URL(fileURLWithPath: store.logPath))
            #expect(try FileAdminStore(directory: directory.path).load() == states[2])
        }
        var garbage = whole.prefix(lastRecordStart)
        garbage.append(Data(repeating: 0, count: 8_192))
        try garbage.write(to: URL(fileURLWithPath: store.logPath))
        let restarted = FileAdminStore(directory: directory.path)
        #expect(try restarted.load() == states[2])
        // The writer goes on from the state it loaded; its record replaces the torn one.
        try restarted.commit(states[3], replacing: states[2].version)
        try restarted.commit(states[4], replacing: states[3].version)
        #expect(try FileAdminStore(directory: directory.path).load() == states[4])
        #expect(try !Data(contentsOf: URL(fileURLWithPath: store.logPath)).contains(0), "the torn tail was not cut off")
    }

    /// A damaged record with whole ones after it is not a torn tail: the records after it were
    /// acknowledged, so startup stops, names the file and leaves it as it is.
    @Test func aDamagedRecordInTheMiddleStopsStartupAndIsKept() throws {
        let (directory, store, _) = try Self.storeWithChanges(5)
        var log = try Data(contentsOf: URL(fileURLWithPath: store.logPath))
        let secondRecord = try #require(log.firstIndex(of: UInt8(ascii: "\n"))) + 1
        let version = try #require(log[secondRecord...].range(of: Data("\"version\"".utf8)))
        log[version.lowerBound + 2] = UInt8(ascii: "E")  // same length: only the checksum tells
        try log.write(to: URL(fileURLWithPath: store.logPath))
        #expect {
            try FileAdminStore(directory: directory.path).load()
        } throws: { error in
            let message = (error as? AdminStoreError)?.message ?? ""
            return message.contains("state.log is corrupt") && message.contains("byte \(secondRecord) is damaged")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.logPath)) == log)
    }

    @Test func aWholeRecordThatDoesNotFollowIsReportedNotSkipped() throws {
        let directory = try TemporaryDirectory()
        let store = FileAdminStore(directory: directory.path)
        let states = Self.changes()
        try store.commit(states[0], replacing: 0)
        try store.commit(states[1], replacing: 1)
        var gap = try #require(AdminChangeRecord(last: states[3]))
        gap.version = 5
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: store.logPath))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(StoredRecord.frame(gap.payload)))
        try handle.close()
        #expect {
            try FileAdminStore(directory: directory.path).load()
        } throws: { error in
            (error as? AdminStoreError)?.message.contains("does not follow version 2") == true
        }
    }

    @Test func theLogIsCompactedIntoTheSnapshotOnceItIsAsLarge() throws {
        let directory = try TemporaryDirectory()
        let store = FileAdminStore(directory: directory.path)
        var state = AdminState()
        var compactions = 0
        for index in 0..<400 {
            let next = W.next(state, action: "rules.add", keep: 10) { rules, _ in
                rules.append(W.rule("rule\(index)", "shopapp://" + String(repeating: "x", count: 200)))
            }
            try store.commit(next, replacing: state.version)
            state = next
            let log = (try? FileManager.default.attributesOfItem(atPath: store.logPath)[.size] as? Int) ?? 0
            if log == 0 { compactions += 1 }
            #expect(log <= max(try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int ?? 0, 64 * 1024))
        }
        #expect(compactions >= 2)
        #expect(try FileAdminStore(directory: directory.path).load() == state)
    }

    @Test func recordsTheSnapshotAlreadyHoldsAreSkipped() throws {
        // A crash after the new snapshot's rename, before the log was emptied.
        let directory = try TemporaryDirectory()
        let store = FileAdminStore(directory: directory.path)
        let states = Self.changes()
        for (index, state) in states.prefix(4).enumerated() { try store.commit(state, replacing: index) }
        let log = try Data(contentsOf: URL(fileURLWithPath: store.logPath))
        try store.save(states[3])
        try log.write(to: URL(fileURLWithPath: store.logPath))
        #expect(try FileAdminStore(directory: directory.path).load() == states[3])
    }

    @Test func aStateJSONOfEarlierVersionsIsReadWithItsHistoryAndMigratedAtTheFirstWrite() throws {
        let directory = try TemporaryDirectory()
        let states = Self.changes()
        let current = try #require(states.last)
        // The whole state in each history entry, as earlier versions wrote it.
        let entries = states.map { state -> String in
            let entry = try? #require(state.history.last)
            return JSONValue.object([
                ("version", .number(Double(state.version))), ("time", .string(entry?.time ?? "")), ("token", .string("t")),
                ("action", .string(entry?.action ?? "")), ("ids", .array((entry?.ids ?? []).map(JSONValue.string))),
                ("rules", .array(state.rules.map(\.fileJSON))), ("routes", .array(state.routes.map(\.fileJSON))),
            ]).jsonText
        }
        let document =
            "{\"version\": \(current.version), \"rules\": \(JSONValue.array(current.rules.map(\.fileJSON)).jsonText), "
            + "\"routes\": \(JSONValue.array(current.routes.map(\.fileJSON)).jsonText), \"history\": [\(entries.joined(separator: ","))]}"
        try directory.write("state.json", document)
        let store = FileAdminStore(directory: directory.path)
        let loaded = try store.load()
        #expect(loaded.version == current.version && loaded.rules == current.rules && loaded.routes == current.routes)
        #expect(loaded.history.map(\.version) == current.history.map(\.version))
        #expect(loaded.history.map(\.ids) == current.history.map(\.ids))
        for state in states {
            let content = try #require(loaded.content(atVersion: state.version))
            #expect(content.rules == state.rules && content.routes == state.routes, "version \(state.version)")
        }
        let next = W.next(loaded, action: "rules.add") { rules, _ in rules.append(W.rule("after")) }
        try store.commit(next, replacing: loaded.version)
        #expect(try Set(directory.contents()) == ["state.json"])
        #expect(try FileAdminStore(directory: directory.path).load() == next)
    }

    @Test func recordsAreFramedWithLengthAndChecksum() {
        let framed = StoredRecord.frame(#"{"a":"é"}"#)
        #expect(String(decoding: framed, as: UTF8.self).hasPrefix("10 "))
        framed.withUnsafeBytes { bytes in
            #expect(StoredRecord.scan(bytes).payloads == [12..<22] && StoredRecord.scan(bytes).end == framed.count)
        }
        var flipped = framed
        flipped[14] ^= 1
        flipped.withUnsafeBytes { #expect(StoredRecord.scan($0).end == 0) }
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}
