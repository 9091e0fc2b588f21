/// What asked for a reload of the config directory. Every source feeds the same
/// ``Reloader/reload(_:)``; the trigger only names the source in logs and `/admin/status`.
package enum ReloadTrigger: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The first load, when the server starts.
    case startup
    /// The config watcher saw the files change.
    case watch
    /// The process received `SIGHUP`.
    case signal = "SIGHUP"
    /// `POST /admin/reload`.
    case api

    package var description: String { rawValue }
}
