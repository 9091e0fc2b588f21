import SwitchboardCore

/// The snapshot a write would swap in, built off to the side, with the one it would replace:
/// what `POST /admin/preview` resolves the traffic sample against. Building one changes
/// nothing: no version, no store, no metrics, no status, no swap.
struct CandidateSnapshot {
    /// The snapshot the write was checked against.
    let running: Snapshot
    /// The snapshot the write would make current.
    let candidate: Snapshot
    /// What the write adds, changes and removes.
    let change: ChangeSummary

    /// The candidate of an admin change: exactly the dry run of the write (``AdminWriter/candidate(_:expectedVersion:actor:)``).
    ///
    /// - Throws: ``APIError``, the one the write would answer.
    static func admin(
        _ change: AdminChange, expectedVersion: Int?, actor: String, writer: AdminWriter
    ) throws(APIError) -> CandidateSnapshot {
        do {
            let sides = try writer.candidate(change, expectedVersion: expectedVersion, actor: actor)
            return CandidateSnapshot(running: sides.running, candidate: sides.candidate, change: ChangeSummary(sides.preview))
        } catch {
            throw APIError(error)
        }
    }

    /// The candidate of a reload: the config directory read as ``Reloader/reload(_:)`` reads
    /// it, with the running admin state.
    ///
    /// - Throws: ``APIError`` (`422 invalid_config` with every issue), as the reload answers.
    ///
    /// - Parameter environment: the variables that override start-only settings, as the
    ///   reloader reads them.
    static func reload(
        configDirectory: String, running: Snapshot, environment: [String: String] = [:]
    ) throws(APIError) -> CandidateSnapshot {
        do throws(ConfigIssues) {
            let built = try Reloader.build(from: configDirectory, running: running, environment: environment)
            return CandidateSnapshot(
                running: running, candidate: built.snapshot,
                change: ChangeSummary(from: running.resolver, to: built.snapshot.resolver))
        } catch {
            throw APIError(
                status: 422, code: "invalid_config",
                message: "the config has \(error.issues.count) error(s); the running state is unchanged", issues: error.issues)
        }
    }
}
