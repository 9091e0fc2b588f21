import ArgumentParser
import Foundation
import SwitchboardCore
import SwitchboardServer

/// `switchboard resolve [--config DIR] [--platform P] [--app-version V] [--device ID] [--at TIME] URL`:
/// prints exactly what `GET /resolve` returns for a request with that context.
struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Resolve one URL as GET /resolve would answer it.",
        discussion:
            "Resolves against the config and the persisted admin state, and prints the /resolve JSON (with --explain, plus its trace). The context options stand for what an app sends (platform, appVersion, device; the request's time), so that conditional rules and minAppVersion can be tried before they go live. Exit status: 0 matched, 1 not matched, 2 bad input (malformed URL or context, or a config that does not load)."
    )

    @Option(help: "The asking app's platform: ios, android or web.")
    var platform: String?

    @Option(name: .customLong("app-version"), help: "The asking app's version, e.g. 5.3.0.")
    var appVersion: String?

    @Option(help: "The asking device's id (percentage rollouts are stable per device).")
    var device: String?

    @Option(help: "The time of the request, RFC 3339 with an offset (e.g. 2026-11-11T01:00:00+08:00); default now.")
    var at: String?

    @OptionGroup var options: ConfigOptions

    @Flag(name: .long, help: "Add a trace: each rewrite rule tried and what happened, and the router's walk.")
    var explain = false

    @Flag(name: .long, help: "Print where GET /open sends the --platform (ios, android, web or preview) instead; exit 1 when it is a 404.")
    var open = false

    @Argument(help: "The URL to resolve.")
    var url: String

    func run() throws {
        let snapshot = try options.loadSnapshot()
        let context = try requestContext()
        do {
            let (resolution, trace) =
                explain
                ? try snapshot.resolver.explain(url, context: context) : (try snapshot.resolver.resolve(url, context: context), nil)
            if open {
                let decision = OpenDecision.decide(
                    resolution, platform: OpenPlatform(parameter: platform ?? "web", userAgent: nil),
                    settings: snapshot.config.settings, policy: snapshot.redirectPolicy)
                print(decision.json.jsonText)
                if case .refused = decision.answer { throw ExitCode.findings }
                throw ExitCode.success
            }
            if let trace, case .object(var members) = resolution.json {
                members.append(("trace", trace.json))
                print(JSONValue.object(members).jsonText)
            } else {
                print(String(decoding: resolution.jsonBytes, as: UTF8.self))
            }
            throw resolution.matched ? ExitCode.success : ExitCode.findings
        } catch let error as ResolveError {
            StandardError.write("switchboard: \(error.message)")
            throw ExitCode.badInput
        }
    }

    /// The request the options describe; a value that is not what the server would take is an
    /// error (exit 2) rather than silently ignored.
    private func requestContext() throws -> RequestContext {
        if let platform, !(["ios", "android", "web"] + (open ? ["preview"] : [])).contains(platform.lowercased()) {
            StandardError.write("switchboard: --platform must be ios, android or web\(open ? " (or preview)" : ""), not '\(platform)'")
            throw ExitCode.badInput
        }
        if let appVersion, SemanticVersion(appVersion) == nil {
            StandardError.write("switchboard: --app-version '\(appVersion)' is not a version such as 5.3.0")
            throw ExitCode.badInput
        }
        var now = Date().timeIntervalSince1970
        if let at {
            guard let seconds = RequestContext.seconds(rfc3339: at) else {
                StandardError.write(
                    "switchboard: --at '\(at)' is not an RFC 3339 date-time with an offset, such as 2026-11-11T01:00:00+08:00")
                throw ExitCode.badInput
            }
            now = seconds
        }
        return RequestContext(platform: platform, appVersion: appVersion, deviceID: device, now: now)
    }
}
