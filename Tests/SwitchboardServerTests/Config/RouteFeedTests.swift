import Foundation
import SwitchboardTestSupport
import Synchronization
import Testing

@testable import SwitchboardServer

/// A feed hands chunks over in order, and frees each one after `body`, off the receiving thread.
@Suite struct RouteFeedTests {
    typealias Garbage = MemoryReclaimerTests.Garbage

    @Test func chunksArriveInOrderAndAreFreedOffTheReceivingThread() throws {
        let feed = RouteFeed<Garbage>()
        let receiver = pthread_self()
        let freed = Mutex((count: 0, onReceiver: 0))
        @Sendable func item() -> Garbage {
            Garbage {
                let onReceiver = pthread_equal(pthread_self(), receiver) != 0
                freed.withLock {
                    $0.count += 1; $0.onReceiver += onReceiver ? 1 : 0
                }
            }
        }
        // Sent from another thread, as the decoder does; the sender keeps no reference.
        Thread.detachNewThread {
            feed.send([item(), item()])
            feed.send([item()])
            feed.finish(RouteFeed<Garbage>.Outcome(module: "m", routeCount: 3))
        }
        var sizes: [Int] = []
        let outcome = feed.receive { chunk in sizes.append(chunk.count) }
        #expect(sizes == [2, 1])
        #expect(outcome.module == "m" && outcome.routeCount == 3)

        let deadline = Date().addingTimeInterval(5)
        while freed.withLock({ $0.count }) < 3, Date() < deadline { usleep(1000) }
        #expect(freed.withLock { $0.count } == 3)
        #expect(freed.withLock { $0.onReceiver } == 0)
    }
}
