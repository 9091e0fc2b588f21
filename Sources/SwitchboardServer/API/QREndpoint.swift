import SwitchboardCore
import SwitchboardHTTP

/// `GET /qr?url=U[&format=png|svg][&size=PIXELS][&ec=L|M|Q|H]` (design.md §11): a QR code of
/// the `/open` link for `U` on the service's `public_url`, so that a phone that scans it is
/// sent where `/open` sends its platform.
///
/// PNG (1-bit grayscale) by default, SVG with `format=svg`; `size` (default 256) is the most
/// pixels a side, the image being the largest whole number of pixels a module that fits (at
/// least one); `ec` the error-correction level (default `M`). A `url` that does not parse is a
/// `400 invalid_url`; a bad parameter, a `size` over ``maxPixels`` or a link over
/// ``maxLinkBytes`` a `400`; without `public_url`, `404 qr_unavailable`.
struct QREndpoint: Sendable {
    /// The largest `size` answered.
    static let maxPixels = 2048
    /// The longest `/open` link encoded (a QR symbol holds at most 2,953 bytes at level L).
    static let maxLinkBytes = 2048
    /// The `size` when none is given.
    static let defaultPixels = 256

    func get(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        guard let url = try request.queryValue("url"), !url.isEmpty else {
            throw APIError.badRequest("invalid_url", "give the url parameter: GET /qr?url=<percent-encoded URL>")
        }
        do {
            _ = try ParsedURL.parse(url)
        } catch {
            throw APIError.badRequest("invalid_url", "the url is not a valid URL: \(error.message)")
        }
        let format = try request.queryValue("format") ?? "png"
        guard format == "png" || format == "svg" else {
            throw APIError.badRequest("invalid_parameter", "format must be png or svg")
        }
        let sizeText = try request.queryValue("size")
        let pixels = sizeText.map { Int($0) ?? -1 } ?? Self.defaultPixels
        guard (1...Self.maxPixels).contains(pixels) else {
            throw APIError.badRequest("invalid_parameter", "size must be a whole number of pixels from 1 to \(Self.maxPixels)")
        }
        let levelText = try request.queryValue("ec") ?? "M"
        guard let correction = QRCode.ErrorCorrection(rawValue: levelText.uppercased()) else {
            throw APIError.badRequest("invalid_parameter", "ec must be L, M, Q or H")
        }
        guard let base = request.snapshot.config.settings.publicURL else {
            throw APIError(
                status: 404, code: "qr_unavailable", message: "set public_url in switchboard.yaml to serve QR codes of /open links")
        }
        let link = Self.openLink(base: base, url: url)
        guard link.utf8.count <= Self.maxLinkBytes else {
            throw APIError.badRequest(
                "invalid_parameter", "the /open link is \(link.utf8.count) bytes; a QR code here holds at most \(Self.maxLinkBytes)")
        }
        let code: QRCode
        do {
            code = try QRCode(link, correction: correction)
        } catch {
            throw APIError.badRequest("invalid_parameter", error.message)
        }
        let scale = max(1, pixels / code.sideModules)
        if format == "svg" {
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "image/svg+xml"), ("Cache-Control", "public, max-age=86400")],
                body: Array(code.svg(pixels: scale * code.sideModules).utf8))
        }
        guard let png = code.png(scale: scale) else {
            throw APIError(status: 500, code: "internal", message: "the PNG could not be compressed")
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "image/png"), ("Cache-Control", "public, max-age=86400")], body: png)
    }

    /// `BASE/open?url=ENCODED`: the link a scan opens.
    static func openLink(base: String, url: String) -> String {
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        return trimmed + "/open?url=" + PercentEncoding.percentEncodedForQueryValue(url)
    }
}
