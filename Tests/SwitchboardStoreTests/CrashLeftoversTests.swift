import Foundation
import SwitchboardTestSupport
import Testing

@testable import SwitchboardStore

#if canImport(Glibc)
    import Glibc
#endif

/// The temporary files a killed writer leaves in `data_dir` are removed at start, and nothing
/// else is. Blocking: it waits for a child process.
@Suite(.blockingIO)
struct CrashLeftoversTests {
    /// The pid of a process that has exited (and been reaped).
    static func deadPID() throws -> pid_t {
        let process = try ChildProcess("/bin/true", [])
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func onlyTheTemporaryFilesOfDeadWritersAndOfThisPIDAreRemovedAtStart() throws {
        let directory = try TemporaryDirectory()
        let dead = try Self.deadPID()
        let removable = [".state.json.\(dead).tmp", ".state.json.\(getpid()).tmp"]
        // pid 1 is always alive: a writer that may be writing right now.
        let kept = [
            ".state.json.1.tmp", ".state.json.12x.tmp", ".state.json..tmp", "state.json.\(dead).tmp", ".state.json.\(dead).tmp.bak",
            ".other.\(dead).tmp", "notes.txt",
        ]
        for name in removable + kept { try directory.write(name, "{}") }
        _ = try FileAdminStore(directory: directory.path).load()
        #expect(try Set(directory.contents()) == Set(kept))
    }

    @Test(
        arguments: [
            (".state.json.4242.tmp", 4242), (".state.snapshot.7.tmp", nil), (".state.json.0.tmp", nil), (".state.json.-3.tmp", nil),
            (".state.json.99999999999.tmp", nil), (".state.json.4242.tmpx", nil), ("state.json.4242.tmp", nil), (".state.json.+5.tmp", nil),
        ] as [(String, Int32?)])
    func recognisesExactlyTheTemporaryFileNames(name: String, pid: Int32?) {
        #expect(CrashLeftovers.writerPID(ofTemporaryFile: name) == pid)
    }
}
