import ArgumentParser

/// `--config DIR`, shared by every subcommand.
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, help: "The config directory (switchboard.yaml, routes.d/, rewrites.yaml).")
    var config: String = "./config"
}
