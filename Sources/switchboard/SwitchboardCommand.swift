import ArgumentParser

/// The `switchboard` command line.
@main
struct SwitchboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchboard",
        abstract: "Deep-link routing service."
    )
}
