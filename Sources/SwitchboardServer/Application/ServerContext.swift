import Foundation
import Logging

/// The parts of a running Switchboard that the endpoints use: shared, immutable references.
package struct ServerContext: Sendable {
    /// The snapshot requests resolve against.
    package let holder: SnapshotHolder
    package let metrics: Metrics
    /// Runs `POST /admin/reload`.
    package let reloader: Reloader
    /// Runs admin changes.
    package let adminWriter: AdminWriter
    /// The admin bearer tokens in force (replaced at every successful reload).
    package let adminTokens: AdminTokenHolder
    /// The time for conditional rules, in seconds since the Unix epoch (injectable for tests).
    package let clock: @Sendable () -> Double
    package let startedAt: Date
    /// Whether the server should be sent traffic (`GET /readyz`).
    package let readiness: Readiness
    /// The recent `GET /resolve` requests `POST /admin/preview` replays.
    package let trafficSample: TrafficSample
    /// Resolutions counted over time; `nil` when `analytics.enabled` is false.
    package let analytics: Analytics?
    package let logger: Logger

    /// The snapshot requests use now.
    package var snapshot: Snapshot { holder.current }
}
