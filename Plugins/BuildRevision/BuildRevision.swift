import Foundation
import PackagePlugin

/// Gives `SwitchboardServer` the git commit it is built from, as `SwitchboardVersion.revision`,
/// so that `switchboard --version`, `/livez` and `switchboard_build_info` name the exact build.
///
/// Why a prebuild command: it runs before every `swift build`, with no step to remember and
/// nothing to commit, and SwiftPM compiles what it writes like any other source. A build-tool
/// command would run only when its declared inputs change, and `.git/HEAD` is not an input a
/// target can declare; a generated file committed to the repository would always be one commit
/// behind. The command writes the file only when its content changes, so an unchanged
/// revision recompiles nothing.
///
/// Where the revision comes from, first found wins: the `SWITCHBOARD_REVISION` environment
/// variable (a container build has no `.git`: the Dockerfile passes its `REVISION` build
/// argument this way), then `git rev-parse HEAD` in the package's directory, else `unknown`.
@main
struct BuildRevision: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        let script = #"""
            set -u
            revision=${SWITCHBOARD_REVISION:-}
            if [ -z "$revision" ]; then
              revision=$(git -C "$1" rev-parse HEAD 2>/dev/null) || revision=""
            fi
            case "$revision" in
              ""|*[!0-9A-Za-z._-]*) revision=unknown ;;
            esac
            mkdir -p "$2"
            file="$2/BuildRevision.swift"
            text="// Written by the BuildRevision plugin (Plugins/BuildRevision) at every build.
            extension SwitchboardVersion {
                /// The git commit this binary was built from, or \`unknown\` where there was no git.
                package static let revision = \"$revision\"
            }"
            if [ ! -f "$file" ] || [ "$(cat "$file")" != "$text" ]; then
              printf '%s\n' "$text" >"$file"
            fi
            """#
        var environment: [String: String] = [:]
        for name in ["PATH", "HOME", "SWITCHBOARD_REVISION"] {
            if let value = ProcessInfo.processInfo.environment[name] { environment[name] = value }
        }
        return [
            .prebuildCommand(
                displayName: "Recording the git revision of \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", context.package.directoryURL.path, output.path],
                environment: environment,
                outputFilesDirectory: output)
        ]
    }
}
