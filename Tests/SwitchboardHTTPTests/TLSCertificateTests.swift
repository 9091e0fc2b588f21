import Foundation
import SwitchboardHTTP
import SwitchboardTestSupport
import Testing

/// ``TLSCertificate``: a pair is checked before it can be served.
@Suite("TLS certificates are checked before they are served", .blockingIO)
struct TLSCertificateTests {
    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test("a certificate and its own key make a pair")
    func matchingPair() throws {
        let certificates = try TestCertificates()
        let pair = try certificates.make("a")
        _ = try TLSCertificate(certificatePEM: try Self.bytes(pair.cert), keyPEM: try Self.bytes(pair.key))
    }

    @Test("a key that is not the certificate's, text that is no certificate, and text that is no key are refused, each saying which")
    func refusals() throws {
        let certificates = try TestCertificates()
        let a = try certificates.make("a")
        let b = try certificates.make("b")
        let cases: [(cert: [UInt8], key: [UInt8], message: String)] = [
            (try Self.bytes(a.cert), try Self.bytes(b.key), "the private key does not belong to the certificate"),
            (Array("-----BEGIN CERTIFICATE-----\nnope\n".utf8), try Self.bytes(a.key), "the certificate is not a PEM certificate chain"),
            (try Self.bytes(a.key), try Self.bytes(a.key), "the certificate is not a PEM certificate chain"),
            (try Self.bytes(a.cert), Array("nope".utf8), "the private key is not an unencrypted PEM key"),
            (try Self.bytes(a.cert), try Self.bytes(a.cert), "the private key is not an unencrypted PEM key"),
        ]
        for (cert, key, message) in cases {
            #expect {
                _ = try TLSCertificate(certificatePEM: cert, keyPEM: key)
            } throws: { error in
                guard let error = error as? HTTPServerError else { return false }
                return error.code == .invalidCertificate && error.message.hasPrefix(message) && error.fix != nil
            }
        }
    }
}
