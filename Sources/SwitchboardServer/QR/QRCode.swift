import CQRencode
import Foundation

/// A QR symbol made by libqrencode: its modules (dark or light), row by row, without the quiet
/// zone. The one file that touches libqrencode's and zlib's pointers.
package struct QRCode: Sendable, Hashable {
    /// How much of the symbol may be damaged and still read (ISO/IEC 18004): about 7 %, 15 %,
    /// 25 % and 30 %.
    package enum ErrorCorrection: String, Sendable, Hashable, CaseIterable {
        case low = "L"
        case medium = "M"
        case quartile = "Q"
        case high = "H"

        var level: Int32 {
            switch self {
            case .low: 0
            case .medium: 1
            case .quartile: 2
            case .high: 3
            }
        }
    }

    /// Why a symbol cannot be made.
    package struct EncodingError: Error, Sendable, Hashable {
        /// What went wrong, for the `400`.
        package var message: String
    }

    /// Modules per side.
    package let width: Int
    /// `width × width` modules, row by row; `true` is dark.
    package let modules: [Bool]

    /// The symbol for `text` (its UTF-8 in 8-bit mode), the smallest version that holds it.
    ///
    /// - Throws: ``EncodingError`` when the text does not fit a QR symbol at `correction`
    ///   (version 40 holds 2,953 bytes at `L`, 1,273 at `H`) or holds a NUL byte.
    package init(_ text: String, correction: ErrorCorrection) throws(EncodingError) {
        guard !text.utf8.contains(0) else { throw EncodingError(message: "the text holds a NUL byte") }
        guard let code = sb_qrcode_encode(text, correction.level) else {
            throw EncodingError(
                message: "the link (\(text.utf8.count) bytes) does not fit a QR code at error correction \(correction.rawValue); "
                    + "use a shorter URL or a lower level")
        }
        defer { sb_qrcode_free(code) }
        let width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: UnsafePointer(code.pointee.data), count: width * width)
        // Bit 0 of each byte is the module's colour (libqrencode's layout).
        self.width = width
        self.modules = data.map { $0 & 1 == 1 }
    }

    /// `bytes` compressed as a zlib stream (RFC 1950), as a PNG's `IDAT` holds it.
    static func zlibCompressed(_ bytes: [UInt8]) -> [UInt8]? {
        var written = sb_zlib_bound(UInt(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(written))
        let status = output.withUnsafeMutableBufferPointer { destination in
            bytes.withUnsafeBufferPointer { source in
                sb_zlib_compress(destination.baseAddress, &written, source.baseAddress, UInt(source.count))
            }
        }
        guard status == 0 else { return nil }
        output.removeSubrange(Int(written)...)
        return output
    }

    /// The CRC-32 of a PNG chunk's type and data.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: sb_zlib_crc32(0, $0.baseAddress, UInt32($0.count))) }
    }
}
