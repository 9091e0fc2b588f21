import Logging
import SwitchboardServer
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Signal handling")
struct SignalHandlerTests {
    /// What the callbacks saw.
    final class Received: Sendable {
        let shutdowns = Mutex<[SignalHandler.Signal]>([])
        let reloads = Atomic<Int>(0)
    }

    /// Sends `number` to this process once, then waits until `seen()` or 5 s pass. Once:
    /// ``SignalHandler/start()`` promises that a signal sent after it returns is handled.
    /// (Not `pthread_kill(pthread_self())`: the test runs on a libdispatch worker thread,
    /// which blocks signals.)
    private func send(_ number: Int32, until seen: () -> Bool) async throws {
        kill(getpid(), number)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(5))
        while !seen(), clock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test("SIGHUP calls onReload; SIGTERM and SIGINT call onShutdown with the signal")
    func signalsReachCallbacks() async throws {
        let received = Received()
        let (logger, logs) = CollectingLogHandler.logger()
        let handler = SignalHandler(
            logger: logger,
            onShutdown: { signal in received.shutdowns.withLock { $0.append(signal) } },
            onReload: { received.reloads.add(1, ordering: .relaxed) })
        handler.start()
        handler.start()  // idempotent

        try await send(SIGHUP) { received.reloads.load(ordering: .relaxed) > 0 }
        #expect(received.reloads.load(ordering: .relaxed) == 1)

        try await send(SIGTERM) { received.shutdowns.withLock { $0.contains(.terminate) } }
        try await send(SIGINT) { received.shutdowns.withLock { $0.contains(.interrupt) } }
        #expect(received.shutdowns.withLock { $0 } == [.terminate, .interrupt])
        #expect(logs.all.contains { $0.message == "received SIGHUP" && $0.level == .notice })

        handler.stop()
        handler.stop()  // idempotent
    }
}
