import Foundation

/// The outcome of the last reload attempt, for `/admin/status`.
package struct ReloadStatus: Sendable {
    /// When the attempt finished.
    package var time: Date
    /// What asked for it.
    package var trigger: ReloadTrigger
    /// Whether it succeeded (on failure the previous snapshot is still served).
    package var succeeded: Bool
    /// Every problem found, when it failed.
    package var issues: [ConfigIssue]
    /// Settings the reload read but the server applies only at start (`listen`, `threads`,
    /// …): they differ from the running values until a restart.
    package var restartRequired: [String] = []
}
