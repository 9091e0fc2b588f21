import Foundation
import SwitchboardHTTP

/// The certificates of the TLS listeners (`tls` and `admin_tls`, design.md §2 "Listeners and
/// TLS"): read from their files at start, and again at every reload with the rest of the
/// config, all or nothing. A pair that cannot be read, does not parse or does not match fails
/// the reload with the reason, and the listeners keep serving the pair they have.
package struct ListenerCertificates: Sendable {
    /// One TLS listener: its setting, its files, and what it serves.
    private struct Listener: Sendable {
        let setting: String
        let files: TLSFiles
        let served: ServedCertificate
    }

    private let listeners: [Listener]

    /// No TLS listener.
    package init() {
        listeners = []
    }

    /// Reads the certificates `settings` names (`admin_tls` only beside `admin_listen`).
    ///
    /// - Throws: ``ConfigIssues``, one issue per pair that cannot be served.
    package init(settings: ServerSettings) throws(ConfigIssues) {
        let named = [("tls", settings.tls), ("admin_tls", settings.adminListen == nil ? nil : settings.adminTLS)]
        var listeners: [Listener] = []
        var issues: [ConfigIssue] = []
        for case (let setting, let files?) in named {
            do throws(ConfigIssue) {
                listeners.append(
                    Listener(setting: setting, files: files, served: ServedCertificate(try Self.read(files, setting: setting))))
            } catch {
                issues.append(error)
            }
        }
        guard issues.isEmpty else { throw ConfigIssues(issues) }
        self.listeners = listeners
    }

    /// Every certificate and key file read at a reload, for the config watcher.
    package var files: [String] { listeners.flatMap { [$0.files.certFile, $0.files.keyFile] } }

    /// What the listener of `listen` serves, when `tls` is set.
    package var publicCertificate: ServedCertificate? { served(by: "tls") }
    /// What the listener of `admin_listen` serves, when `admin_tls` is set.
    package var adminCertificate: ServedCertificate? { served(by: "admin_tls") }

    private func served(by setting: String) -> ServedCertificate? {
        listeners.first { $0.setting == setting }?.served
    }

    /// Every listener's pair read again from its files (the paths the server started with),
    /// not served yet: ``install(_:)`` does that once the whole reload has succeeded.
    ///
    /// - Throws: ``ConfigIssues``, one issue per pair that cannot be served.
    func readAgain() throws(ConfigIssues) -> [TLSCertificate] {
        var certificates: [TLSCertificate] = []
        var issues: [ConfigIssue] = []
        for listener in listeners {
            do throws(ConfigIssue) {
                certificates.append(try Self.read(listener.files, setting: listener.setting))
            } catch {
                issues.append(error)
            }
        }
        guard issues.isEmpty else { throw ConfigIssues(issues) }
        return certificates
    }

    /// Serves `certificates`, as ``readAgain()`` returned them, to new connections.
    func install(_ certificates: [TLSCertificate]) {
        for (listener, certificate) in zip(listeners, certificates) {
            listener.served.replace(with: certificate)
        }
    }

    /// The pair of `files`, read and checked.
    ///
    /// - Throws: a ``ConfigIssue`` of `switchboard.yaml` at `setting`: which file cannot be read,
    ///   or what is wrong with the pair.
    static func read(_ files: TLSFiles, setting: String) throws(ConfigIssue) -> TLSCertificate {
        func issue(_ message: String) -> ConfigIssue {
            ConfigIssue(file: "switchboard.yaml", item: setting, message: message, code: "tls")
        }
        var contents: [[UInt8]] = []
        for (key, path) in [("cert_file", files.certFile), ("key_file", files.keyFile)] {
            guard let data = FileManager.default.contents(atPath: path) else {
                let problem = FileManager.default.fileExists(atPath: path) ? "is not readable" : "does not exist"
                throw issue("\(key) '\(path)' \(problem): give the path of a PEM file this process can read")
            }
            contents.append(Array(data))
        }
        do throws(HTTPServerError) {
            return try TLSCertificate(certificatePEM: contents[0], keyPEM: contents[1])
        } catch {
            throw issue("\(files.certFile) and \(files.keyFile): \(error)")
        }
    }
}
