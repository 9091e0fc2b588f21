/// The version of Switchboard, in one place: `switchboard --version`, `GET /livez` and the
/// `switchboard_build_info` series all read it.
package enum SwitchboardVersion {
    /// Semantic version of this build.
    package static let current = "0.1.0"
}
