import Logging
import ServiceLifecycle
import SwitchboardStore

/// Keeps this replica in step with a shared admin store: a `Service` that follows the changes
/// other replicas commit and swaps in each newer state. Only a store whose
/// ``SwitchboardStore/AdminStore/isShared`` is true needs one.
package final class StoreFollower: Service, Sendable {
    private let writer: AdminWriter
    private let logger: Logger

    package init(writer: AdminWriter, logger: Logger) {
        self.writer = writer
        self.logger = logger
    }

    /// Follows the store until the service group shuts down.
    package func run() async {
        await DedicatedThread.run(named: "switchboard.store-follower") { [writer, logger] shouldStop in
            writer.store.followChanges(logger: logger, shouldStop: shouldStop) {
                do throws(AdminChangeError) {
                    try writer.syncFromStore()
                    return true
                } catch {
                    // An unreachable store is tried again shortly; a state that does not build
                    // with this replica's config waits for the next change or check.
                    let retried = error.kind == .storeUnavailable
                    logger.warning(
                        retried ? "cannot resynchronise with the admin store yet; retrying" : "cannot resynchronise with the admin store",
                        metadata: ["error": "\(error.message)"])
                    return !retried
                }
            }
        }
    }
}
