import Foundation

/// Where the secret of an admin token is read: an environment variable (`token_env`), or a file
/// (`token_file`), such as a mounted Kubernetes Secret. Both are read at start and again at
/// every reload, so a file rotates without a restart: write the new value, then reload (or let
/// the kubelet swap the Secret's symlink and send `SIGHUP`).
package enum AdminTokenSource: Sendable, Hashable {
    /// The environment variable holding the secret.
    case environment(String)
    /// The file holding the secret (surrounding whitespace and the final newline ignored);
    /// a relative path is relative to the working directory.
    case file(String)

    /// The setting as an operator writes it, for messages: `token_env SWITCHBOARD_ADMIN_TOKEN`.
    package var settingDescription: String {
        switch self {
        case .environment(let name): "token_env \(name)"
        case .file(let path): "token_file \(path)"
        }
    }

    /// Files larger than this are not admin tokens: they are refused rather than read whole.
    static let maxFileBytes = 4096

    /// The secret, or `nil` when an environment variable is unset or empty (the token is then
    /// disabled).
    ///
    /// - Throws: ``AdminTokenError`` when a file cannot be read, is empty or too large.
    func read(tokenName: String, environment: [String: String]) throws(AdminTokenError) -> String? {
        switch self {
        case .environment(let name):
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        case .file(let path):
            let unreadable = AdminTokenError(
                tokenName: tokenName, source: self,
                problem: "cannot be read (missing, a folder, or not readable by this user): fix the path or its permissions")
            guard let file = FileHandle(forReadingAtPath: path) else { throw unreadable }
            defer { try? file.close() }
            // At most one byte more than a token may have: a wrong path to a large file is refused
            // without being read whole.
            let data: Data
            do {
                data = try file.read(upToCount: Self.maxFileBytes + 1) ?? Data()
            } catch {
                throw unreadable
            }
            guard data.count <= Self.maxFileBytes else {
                throw AdminTokenError(
                    tokenName: tokenName, source: self,
                    problem: "is more than an admin token's \(Self.maxFileBytes) bytes: point it at the token alone")
            }
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else {
                throw AdminTokenError(
                    tokenName: tokenName, source: self, problem: "is empty: write the token into it (openssl rand -hex 24)")
            }
            return text
        }
    }
}
