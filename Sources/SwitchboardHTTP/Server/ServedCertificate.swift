import Synchronization

/// The certificate a TLS listener presents to new connections, replaceable while it serves: a
/// renewed certificate is put here, and every handshake from then on gets it, while open
/// connections keep the one they began with.
///
/// ```swift
/// let served = ServedCertificate(try TLSCertificate(certificatePEM: cert, keyPEM: key))
/// configuration.tls = served
/// served.replace(with: try TLSCertificate(certificatePEM: renewedCert, keyPEM: renewedKey))
/// ```
package final class ServedCertificate: Sendable {
    private let certificate: Mutex<TLSCertificate>

    /// Serves `certificate` until it is replaced.
    package init(_ certificate: TLSCertificate) {
        self.certificate = Mutex(certificate)
    }

    /// The certificate new connections get.
    package var current: TLSCertificate { certificate.withLock { $0 } }

    /// Makes `replacement` the certificate of every handshake from now on.
    package func replace(with replacement: TLSCertificate) {
        certificate.withLock { $0 = replacement }
    }
}
