/// The version of Switchboard, in one place: `switchboard --version`, `GET /livez`, the
/// `switchboard_build_info` series and the image's labels read it, and `openapi.yaml`'s
/// `info.version` must equal it (a test checks). CHANGELOG.md lists what each version changed.
///
/// ``revision``, the git commit of the build, is written at every build by the
/// `BuildRevision` plugin (Plugins/BuildRevision), which says why a plugin.
package enum SwitchboardVersion {
    /// Semantic version of this build.
    package static let current = "0.1.0"

    /// What `switchboard --version` prints: `0.1.0 (revision 8658e92…)`.
    package static var description: String { "\(current) (revision \(revision))" }
}
