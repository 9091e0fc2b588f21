import ServiceLifecycle
import UnixSignals

/// The process's signals, when they belong to one server: `SIGHUP` reloads the config,
/// `SIGTERM` and `SIGINT` shut down gracefully.
package struct ProcessSignals: Sendable {
    /// The signals that start a graceful shutdown (trapped by the service group).
    static let shutdown: [UnixSignal] = [.sigterm, .sigint]

    /// `SIGHUP`, trapped.
    let hangups: UnixSignalsSequence

    /// Traps `SIGHUP` and returns once it is trapped: a `SIGHUP` sent after this returns
    /// reloads instead of ending the process.
    package static func trap() async -> ProcessSignals {
        ProcessSignals(hangups: await UnixSignalsSequence(trapping: .sighup))
    }
}
