/// What an admin token must be to be accepted: long enough that it cannot be guessed, and not a
/// placeholder copied from an example. A token is a bearer credential for a write-capable API,
/// so the server refuses to start with a weak one rather than warn.
enum AdminTokenStrength {
    /// The fewest characters a token may have (`openssl rand -hex 24` gives 48).
    static let minimumLength = 24

    /// Values from examples and defaults that an attacker tries first, compared lowercased.
    static let placeholders: Set<String> = ["change-me", "secret", "password", "admin", "token", "test"]

    /// What is wrong with `secret` as an admin token, or `nil` when nothing is.
    static func problem(with secret: String) -> String? {
        let fix = "generate one with `openssl rand -hex 24`"
        if placeholders.contains(secret.lowercased()) {
            return "is the placeholder '\(secret)': \(fix)"
        }
        let length = secret.count
        if length < minimumLength {
            return "is \(length) characters long: a token needs at least \(minimumLength); \(fix)"
        }
        return nil
    }
}
