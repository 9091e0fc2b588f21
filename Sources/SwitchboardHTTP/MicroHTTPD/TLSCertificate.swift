// The only Swift file that touches GnuTLS's pointers: a parsed certificate chain and its private
// key, as libmicrohttpd's certificate callback hands them to a handshake.

import CMicroHTTPD

/// A certificate chain and its private key, parsed and checked to belong together: what a TLS
/// listener presents in a handshake (``ServedCertificate``).
///
/// Immutable once made; GnuTLS reads it from libmicrohttpd's threads during handshakes, and
/// each connection keeps the one it was handed for as long as it is open.
///
/// ```swift
/// let certificate = try TLSCertificate(certificatePEM: Array(certText.utf8), keyPEM: Array(keyText.utf8))
/// ```
package final class TLSCertificate: @unchecked Sendable {
    /// The chain, leaf first; `certificateCount` of them initialised.
    private let certificates: UnsafeMutablePointer<gnutls_pcert_st>
    private let certificateCount: UInt32
    /// `gnutls_privkey_t`.
    private let key: OpaquePointer
    /// The most certificates a chain may hold (a leaf and its intermediates).
    private static let maxChainLength: UInt32 = 16

    /// Parses a PEM chain (leaf first) and a PEM private key (unencrypted), and checks that the
    /// key is the leaf certificate's.
    ///
    /// - Throws: ``HTTPServerError`` (`invalidCertificate`) saying which of the two does not
    ///   parse, or that they do not belong together, with GnuTLS's reason.
    package init(certificatePEM: [UInt8], keyPEM: [UInt8]) throws(HTTPServerError) {
        let certificates = UnsafeMutablePointer<gnutls_pcert_st>.allocate(capacity: Int(Self.maxChainLength))
        var count = Self.maxChainLength
        let imported = Self.withDatum(certificatePEM) { datum in
            gnutls_pcert_list_import_x509_raw(certificates, &count, datum, GNUTLS_X509_FMT_PEM, 0)
        }
        guard imported >= 0, count > 0 else {
            certificates.deallocate()
            throw Self.failure(
                "the certificate is not a PEM certificate chain", code: imported,
                fix: "give the PEM file (-----BEGIN CERTIFICATE-----), the server's certificate first, then its intermediates")
        }
        var key: OpaquePointer?
        var keyResult = gnutls_privkey_init(&key)
        if keyResult >= 0, let key {
            keyResult = Self.withDatum(keyPEM) { datum in
                gnutls_privkey_import_x509_raw(key, datum, GNUTLS_X509_FMT_PEM, nil, 0)
            }
        }
        guard keyResult >= 0, let key else {
            if let key { gnutls_privkey_deinit(key) }
            Self.release(certificates, count: count)
            throw Self.failure(
                "the private key is not an unencrypted PEM key", code: keyResult,
                fix: "give the PEM file of the key (-----BEGIN PRIVATE KEY----- or -----BEGIN RSA/EC PRIVATE KEY-----), "
                    + "without a passphrase")
        }
        guard Self.keyIdentifier(ofPrivateKey: key) == Self.keyIdentifier(of: certificates.pointee.pubkey) else {
            gnutls_privkey_deinit(key)
            Self.release(certificates, count: count)
            throw HTTPServerError(
                .invalidCertificate, "the private key does not belong to the certificate",
                context: "TLS certificate and key",
                fix: "give the key the certificate was issued for (a renewal writes both files: read them after both changed)")
        }
        self.certificates = certificates
        self.certificateCount = count
        self.key = key
    }

    deinit {
        gnutls_privkey_deinit(key)
        Self.release(certificates, count: certificateCount)
    }

    /// Hands the chain and the key to GnuTLS for one handshake (a
    /// `gnutls_certificate_retrieve_function2`'s out parameters); GnuTLS neither copies nor
    /// frees them, so the caller keeps `self` alive while the connection is open.
    func present(
        chain: UnsafeMutablePointer<UnsafeMutablePointer<gnutls_pcert_st>?>,
        length: UnsafeMutablePointer<UInt32>,
        key presentedKey: UnsafeMutablePointer<OpaquePointer?>
    ) {
        chain.pointee = certificates
        length.pointee = certificateCount
        presentedKey.pointee = key
    }

    /// Calls `body` with a datum over `bytes` (GnuTLS reads it only).
    private static func withDatum(_ bytes: [UInt8], _ body: (UnsafePointer<gnutls_datum_t>) -> Int32) -> Int32 {
        var copy = bytes
        return copy.withUnsafeMutableBufferPointer { buffer in
            var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(clamping: buffer.count))
            return body(&datum)
        }
    }

    /// The SHA-256 identifier of a public key, or `nil`.
    private static func keyIdentifier(of publicKey: OpaquePointer?) -> [UInt8]? {
        guard let publicKey else { return nil }
        var identifier = [UInt8](repeating: 0, count: 64)
        var size = identifier.count
        guard gnutls_pubkey_get_key_id(publicKey, UInt32(GNUTLS_KEYID_USE_SHA256.rawValue), &identifier, &size) >= 0 else {
            return nil
        }
        return Array(identifier.prefix(size))
    }

    /// The identifier of a private key's public half, or `nil`.
    private static func keyIdentifier(ofPrivateKey key: OpaquePointer) -> [UInt8]? {
        var publicKey: OpaquePointer?
        guard gnutls_pubkey_init(&publicKey) >= 0, let publicKey else { return nil }
        defer { gnutls_pubkey_deinit(publicKey) }
        guard gnutls_pubkey_import_privkey(publicKey, key, 0, 0) >= 0 else { return nil }
        return keyIdentifier(of: publicKey)
    }

    private static func release(_ certificates: UnsafeMutablePointer<gnutls_pcert_st>, count: UInt32) {
        for index in 0..<Int(count) { gnutls_pcert_deinit(certificates + index) }
        certificates.deallocate()
    }

    private static func failure(_ message: String, code: Int32, fix: String) -> HTTPServerError {
        let reason = code < 0 ? String(cString: gnutls_strerror(code)) : "no certificate in the file"
        return HTTPServerError(.invalidCertificate, "\(message) (GnuTLS: \(reason))", context: "TLS certificate and key", fix: fix)
    }
}
