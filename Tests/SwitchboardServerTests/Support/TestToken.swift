/// Admin tokens for tests: as long as the server requires (24 characters and more), each
/// telling which test token it is.
enum TestToken {
    /// The token of `SWITCHBOARD_ADMIN_TOKEN` that servers under test start with.
    static let admin = named("admin")

    /// A valid token that starts with `name`: `alice` gives `alice-token-0123456789abcdef`.
    static func named(_ name: String) -> String {
        "\(name)-token-0123456789abcdef"
    }
}
