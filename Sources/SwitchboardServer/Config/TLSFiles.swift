import SwitchboardCore

/// `tls:` and `admin_tls:` in `switchboard.yaml`: the PEM files a listener serves HTTPS with
/// (design.md §2 "Listeners and TLS"). Both keys are required; relative paths are relative to
/// the working directory, as `data_dir` is.
///
/// The files are read when the server starts and again at every successful reload, so that a
/// renewed certificate is served to new connections without a restart.
///
/// ```yaml
/// tls: { cert_file: /etc/switchboard/tls/tls.crt, key_file: /etc/switchboard/tls/tls.key }
/// ```
package struct TLSFiles: Sendable, Hashable, KeyedSettings {
    /// The certificate chain, leaf first (PEM).
    package var certFile: String = ""
    /// The private key of the leaf certificate (PEM, unencrypted).
    package var keyFile: String = ""

    package init() {}

    package init(certFile: String, keyFile: String) {
        self.certFile = certFile
        self.keyFile = keyFile
    }

    static let keys: [SettingKey<TLSFiles>] = [
        .value("cert_file", \.certFile),
        .value("key_file", \.keyFile),
    ]

    package init(from decoder: any Decoder) throws {
        try self.init(decodingKeysOf: decoder)
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        for (name, value) in [("cert_file", certFile), ("key_file", keyFile)] where value.isEmpty {
            throw DecodingError.dataCorruptedError(
                forKey: AnyCodingKey(stringValue: name), in: container,
                debugDescription: "'\(name)' is required: TLS needs both cert_file and key_file (PEM files)")
        }
    }
}
