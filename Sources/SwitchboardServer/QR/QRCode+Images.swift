/// A QR symbol drawn as an image: PNG (1-bit grayscale) or SVG, with a quiet zone of
/// ``quietZone`` modules, each module `scale` pixels wide.
extension QRCode {
    /// The light border around the symbol, in modules (ISO/IEC 18004 asks for 4).
    package static let quietZone = 4

    /// Modules per side with the quiet zone.
    package var sideModules: Int { width + 2 * Self.quietZone }

    /// Whether the module at (`x`, `y`) of the image, quiet zone included, is dark.
    func isDark(_ x: Int, _ y: Int) -> Bool {
        let column = x - Self.quietZone
        let row = y - Self.quietZone
        guard column >= 0, row >= 0, column < width, row < width else { return false }
        return modules[row * width + column]
    }

    /// The PNG file: a 1-bit grayscale image (dark modules black), `scale` pixels a module.
    /// `nil` only if zlib fails.
    package func png(scale: Int) -> [UInt8]? {
        let side = sideModules * scale
        let rowBytes = (side + 7) / 8
        var raw: [UInt8] = []
        raw.reserveCapacity((rowBytes + 1) * side)
        for y in 0..<side {
            raw.append(0)  // filter type None
            var row = [UInt8](repeating: 0xFF, count: rowBytes)
            for x in 0..<side where isDark(x / scale, y / scale) {
                row[x / 8] &= ~(0x80 >> UInt8(x % 8))
            }
            raw += row
        }
        guard let compressed = Self.zlibCompressed(raw) else { return nil }
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header += Self.bigEndian(UInt32(side))
        header += Self.bigEndian(UInt32(side))
        header += [1, 0, 0, 0, 0]  // bit depth 1, grayscale, deflate, adaptive filtering, no interlace
        Self.appendChunk("IHDR", header, to: &file)
        Self.appendChunk("IDAT", compressed, to: &file)
        Self.appendChunk("IEND", [], to: &file)
        return file
    }

    /// The SVG document: one path of the dark modules on a white square, `pixels` wide.
    package func svg(pixels: Int) -> String {
        let side = sideModules
        var path = ""
        for y in 0..<side {
            var x = 0
            while x < side {
                guard isDark(x, y) else {
                    x += 1
                    continue
                }
                let start = x
                while x < side, isDark(x, y) { x += 1 }
                path += "M\(start) \(y)h\(x - start)v1h-\(x - start)z"
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(pixels)" height="\(pixels)" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">
            <rect width="\(side)" height="\(side)" fill="#fff"/>
            <path d="\(path)" fill="#000"/>
            </svg>

            """
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
        let typed = Array(type.utf8) + data
        file += bigEndian(UInt32(data.count))
        file += typed
        file += bigEndian(crc32(typed))
    }
}
