import Foundation
import SwitchboardTestSupport
import Synchronization
import Testing

@testable import SwitchboardServer

/// The reclaimer frees what it is handed on its own thread, one batch at a time.
@Suite struct MemoryReclaimerTests {
    /// Something to free that tells when, and on which thread, it was freed.
    final class Garbage: Sendable {
        let onFree: @Sendable () -> Void
        init(onFree: @escaping @Sendable () -> Void) { self.onFree = onFree }
        deinit { onFree() }
    }

    @Test func freesWhatItIsHandedOnItsOwnThread() {
        let reclaimer = MemoryReclaimer()
        let freedOnCaller = Mutex<Bool?>(nil)
        let caller = pthread_self()
        reclaimer.reclaim(Garbage { freedOnCaller.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 } })
        reclaimer.waitUntilIdle()
        #expect(freedOnCaller.withLock { $0 } == false)
    }

    @Test func batchesDoNotOverlap() {
        let reclaimer = MemoryReclaimer()
        let state = Mutex((running: 0, most: 0, freed: 0))
        for _ in 0..<5 {
            reclaimer.reclaim(
                Garbage {
                    state.withLock {
                        $0.running += 1; $0.most = max($0.most, $0.running)
                    }
                    usleep(1000)
                    state.withLock {
                        $0.running -= 1; $0.freed += 1
                    }
                })
        }
        reclaimer.waitUntilIdle()
        #expect(state.withLock { $0.freed } == 5)
        #expect(state.withLock { $0.most } == 1)
    }
}
