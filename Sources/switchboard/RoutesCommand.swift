import ArgumentParser
import Foundation
import SwitchboardCore
import SwitchboardServer

/// `switchboard routes [--config DIR] [--module M] [--prefix P] [--format table|json]`: the full
/// routing table (config routes, then the admin routes of the store), as `GET /admin/table`
/// lists it.
struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "List every route, config and admin, with its source.",
        discussion:
            "Config routes, then admin routes, each with module, patterns, target and source. Exit status: 0 listed (even when no route passes the filters), 2 when the config does not load."
    )

    /// How the table is printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// Aligned columns: id, module, patterns, source.
        case table
        /// One JSON array of the rows of `GET /admin/table`.
        case json
    }

    @OptionGroup var options: ConfigOptions

    @Option(help: "Only routes of this module.")
    var module: String?

    @Option(help: "Only routes whose id starts with this.")
    var prefix: String?

    @Option(help: "table or json.")
    var format: Format = .table

    func run() throws {
        let snapshot = try options.loadSnapshot()
        let rows = snapshot.tablePage(
            filter: Snapshot.TableFilter(module: module, idPrefix: prefix), start: 0, limit: Int.max
        ).rows
        switch format {
        case .json:
            print(JSONValue.array(rows.map(\.json)).jsonText)
        case .table:
            let lines =
                [["ID", "MODULE", "PATTERNS", "SOURCE"]]
                + rows.map { [$0.route.id, $0.route.module, $0.route.patterns.joined(separator: " "), $0.source] }
            let widths = (0..<3).map { column in lines.map { $0[column].count }.max() ?? 0 }
            for line in lines {
                let padded = (0..<3).map { line[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                print((padded + [line[3]]).joined(separator: "  "))
            }
        }
    }
}
