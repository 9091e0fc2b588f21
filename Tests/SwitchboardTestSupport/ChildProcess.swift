import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program the tests run (the built `switchboard`, a compiled check), started with
/// `posix_spawn`.
///
/// Foundation's `Process` is not used: in Swift 6.3.1 its `run()` sometimes crashes on Linux,
/// reading whole `dirent` names past the end of glibc's buffer while it lists `/proc/self/fd`
/// (fixed upstream in swift-corelibs-foundation #5472). About one full test run in twenty
/// died of it here.
package final class ChildProcess: Sendable {
    /// How the process ended.
    package enum TerminationReason: Sendable, Equatable {
        /// It exited; the status is its exit status.
        case exit
        /// A signal ended it; the status is the signal's number.
        case uncaughtSignal
    }

    /// Where one of its output streams goes.
    package enum Destination: Sendable {
        /// `/dev/null`.
        case discarded
        /// Appended to the file at this path (created when missing).
        case file(String)
        /// This open descriptor of the test process (a pipe's writing end).
        case descriptor(Int32)
    }

    /// Its process id.
    package let processIdentifier: pid_t
    /// How it ended, once it has been reaped.
    private let ending = Mutex<(reason: TerminationReason, status: Int32)?>(nil)

    /// Starts `path` with `arguments`; standard input is `/dev/null`, no descriptor of the test
    /// process but the ones given is open in the child, and its signals are the defaults.
    ///
    /// - Parameters:
    ///   - environment: its whole environment; `nil` passes the test process's own.
    ///   - directory: its working directory; `nil` keeps the test process's.
    /// - Throws: ``TestSetupError`` naming the call that failed.
    package init(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        standardOutput: Destination = .discarded, standardError: Destination = .discarded
    ) throws {
        var actions = posix_spawn_file_actions_t()
        guard posix_spawn_file_actions_init(&actions) == 0 else { throw TestSetupError("posix_spawn_file_actions_init failed") }
        defer { posix_spawn_file_actions_destroy(&actions) }
        var failures: Int32 = 0
        failures |= posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (descriptor, destination) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            switch destination {
            case .discarded:
                failures |= posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .file(let file):
                failures |= posix_spawn_file_actions_addopen(
                    &actions, descriptor, file, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            case .descriptor(let open):
                failures |= posix_spawn_file_actions_adddup2(&actions, open, descriptor)
            }
        }
        if let directory { failures |= Self.addChangeDirectory(&actions, directory) }
        failures |= Self.addCloseFrom(&actions, 3)
        guard failures == 0 else { throw TestSetupError("could not prepare the file actions to start \(path)") }

        // Signals as a fresh process has them: none blocked, none ignored (the test process's
        // threads block some, and a server under test must receive SIGTERM and SIGHUP).
        var attributes = posix_spawnattr_t()
        guard posix_spawnattr_init(&attributes) == 0 else { throw TestSetupError("posix_spawnattr_init failed") }
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        failures |= posix_spawnattr_setsigmask(&attributes, &noSignals)
        failures |= posix_spawnattr_setsigdefault(&attributes, &allSignals)
        failures |= posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        guard failures == 0 else { throw TestSetupError("could not prepare the signal attributes to start \(path)") }

        let argumentList = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argumentList { free(argument) } }
        let environmentList =
            (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for entry in environmentList { free(entry) } }
        var pid: pid_t = 0
        let started = argumentList.withUnsafeBufferPointer { argv in
            environmentList.withUnsafeBufferPointer { envp in
                posix_spawn(&pid, path, &actions, &attributes, argv.baseAddress!, envp.baseAddress!)
            }
        }
        guard started == 0 else { throw TestSetupError("posix_spawn \(path) failed: \(String(cString: strerror(started)))") }
        processIdentifier = pid
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` and `…_addclosefrom_np` (2.29 and 2.34),
    /// which its headers declare only for GNU sources, so Swift does not import them.
    private typealias AddChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    private static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t, _ directory: String) -> Int32 {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return ENOSYS }
        return unsafeBitCast(symbol, to: AddChangeDirectory.self)(&actions, directory)
    }

    private static func addCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) -> Int32 {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return ENOSYS }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, lowest)
    }

    deinit {
        if isRunning { kill(processIdentifier, SIGKILL) }
        _ = waitUntilExit()
    }

    /// Whether it has not ended yet (reaping it when it has).
    package var isRunning: Bool { reap(waiting: false) == nil }

    /// Waits for it to end.
    @discardableResult
    package func waitUntilExit() -> (reason: TerminationReason, status: Int32) {
        // A blocking wait only fails for a process that is not our child; ours always is.
        reap(waiting: true) ?? (.exit, -1)
    }

    /// How it ended, reaping it if it just has; `nil` while it runs (when not `waiting`).
    private func reap(waiting: Bool) -> (reason: TerminationReason, status: Int32)? {
        ending.withLock { ending in
            if let ending { return ending }
            var status: Int32 = 0
            var reaped: pid_t
            repeat {
                reaped = waitpid(processIdentifier, &status, waiting ? 0 : WNOHANG)
            } while reaped < 0 && errno == EINTR
            guard reaped == processIdentifier else { return nil }
            // The <sys/wait.h> macros, which Swift does not import: the low 7 bits hold the
            // signal that ended it (0 when it exited), the next byte its exit status.
            let signal = status & 0x7F
            let ended = signal == 0 ? (TerminationReason.exit, (status >> 8) & 0xFF) : (.uncaughtSignal, signal)
            ending = ended
            return ended
        }
    }
}
