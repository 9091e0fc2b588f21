import SwitchboardTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The test support's `ChildProcess` starts a program as Foundation's `Process` did: only the
/// descriptors it is given are open in the child, no signal is blocked there, and the way it
/// ended is reported.
@Suite("Child processes of the tests", .blockingIO)
struct ChildProcessTests {
    @Test("a descriptor of the test process is not open in the child")
    func descriptorsAreNotInherited() throws {
        let opened = open("/dev/null", O_RDONLY)
        try #require(opened >= 0)
        defer { close(opened) }
        // A high number no descriptor of the child's own is likely to take; not close-on-exec.
        // F_DUPFD takes the lowest free number from there: dup2 onto a fixed number would
        // silently close whatever another test running alongside holds there (a server's
        // connection, which libmicrohttpd then fails to close and aborts the process).
        let leaked = fcntl(opened, F_DUPFD, Int32(900))
        try #require(leaked >= 900)
        defer { close(leaked) }
        let listing = try Subprocess.run("/bin/ls", ["/proc/self/fd"])
        #expect(listing.status == 0)
        let descriptors = Set(listing.output.split(whereSeparator: \.isNewline))
        #expect(descriptors.isSuperset(of: ["0", "1", "2"]), "\(descriptors)")
        #expect(!descriptors.contains("\(leaked)"), "\(descriptors)")
    }

    @Test("no signal is blocked in the child, whatever the starting thread blocks")
    func signalsAreNotBlocked() throws {
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGHUP)
        try #require(pthread_sigmask(SIG_BLOCK, &blocked, &previous) == 0)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let status = try Subprocess.run("/bin/grep", ["^SigBlk:", "/proc/self/status"])
        #expect(status.output == "SigBlk:\t0000000000000000\n")
    }

    @Test("an exit status and a signal that ended the child are told apart")
    func howItEnded() throws {
        let exited = try ChildProcess("/bin/sh", ["-c", "exit 3"])
        #expect(exited.waitUntilExit() == (.exit, 3))
        let killed = try ChildProcess("/bin/sh", ["-c", "kill -9 $$"])
        #expect(killed.waitUntilExit() == (.uncaughtSignal, SIGKILL))
    }
}
