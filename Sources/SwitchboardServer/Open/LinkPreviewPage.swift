import SwitchboardCore

/// The page `GET /open` answers a link-preview crawler with: OpenGraph and Twitter card tags,
/// a canonical link, and no script. Every value is HTML-escaped where it is written.
package struct LinkPreviewPage: Sendable, Hashable {
    /// The values shown (the route's `preview:` over the site's `link_preview:`).
    package var preview: LinkPreview
    /// Where the link leads on the web, when it leads anywhere `redirect_allow` allows.
    package var canonical: String?

    /// The Content-Security-Policy of the page: nothing runs, nothing loads but images.
    package static let contentSecurityPolicy =
        "default-src 'none'; img-src https: http:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The HTML document.
    package var html: String {
        let title = preview.title ?? canonical ?? "Link"
        var head = "<meta charset=\"utf-8\">\n<title>\(MarkupText.escaped(title))</title>\n"
        func meta(_ attribute: String, _ name: String, _ value: String?) {
            guard let value else { return }
            head += "<meta \(attribute)=\"\(name)\" content=\"\(MarkupText.escaped(value))\">\n"
        }
        meta("property", "og:type", "website")
        meta("property", "og:title", title)
        meta("property", "og:description", preview.description)
        meta("property", "og:image", preview.image)
        meta("property", "og:url", canonical)
        meta("name", "twitter:card", preview.image == nil ? "summary" : "summary_large_image")
        meta("name", "twitter:title", title)
        meta("name", "twitter:description", preview.description)
        meta("name", "twitter:image", preview.image)
        if let canonical { head += "<link rel=\"canonical\" href=\"\(MarkupText.escaped(canonical))\">\n" }
        var body = "<h1>\(MarkupText.escaped(title))</h1>\n"
        if let description = preview.description { body += "<p>\(MarkupText.escaped(description))</p>\n" }
        if let canonical { body += "<p><a href=\"\(MarkupText.escaped(canonical))\">\(MarkupText.escaped(canonical))</a></p>\n" }
        return "<!doctype html>\n<html>\n<head>\n\(head)</head>\n<body>\n\(body)</body>\n</html>\n"
    }

}
