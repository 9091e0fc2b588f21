/// Who asks `GET /open`, decided once per request (design.md §11): the `platform=` query
/// parameter when it names one, else the `User-Agent`.
///
/// | `User-Agent` contains (any case) | platform |
/// |---|---|
/// | a link-preview crawler's token (``crawlerTokens``) | `preview` |
/// | `Android` | `android` |
/// | `iPhone`, `iPad`, `iPod` | `ios` |
/// | anything else, or no `User-Agent` | `web` |
///
/// Crawlers are checked first: some send a phone's name too. An iPad in desktop mode says
/// `Macintosh` and is `web`.
package enum OpenPlatform: String, Sendable, Hashable, CaseIterable {
    /// A link-preview crawler (chat apps, social networks): answered with the preview page.
    case preview
    /// An Android phone or tablet.
    case android
    /// An iPhone, iPad or iPod.
    case ios
    /// Anything else: a desktop browser, a mail client, a script.
    case web

    /// Lowercased substrings of the `User-Agent` of link-preview crawlers.
    package static let crawlerTokens = [
        "facebookexternalhit", "facebot", "twitterbot", "slackbot", "slack-imgproxy", "whatsapp", "linkedinbot",
        "discordbot", "telegrambot", "applebot", "skypeuripreview", "pinterestbot", "redditbot", "embedly", "vkshare",
        "mastodon", "bluesky", "snapchat", "line-poker", "kakaotalk-scrap", "viber", "google-pagerenderer",
    ]

    /// The platform a request names (`platform=ios|android|web|preview`, any case) or, when it
    /// names none of them, the one its `User-Agent` tells.
    package init(parameter: String?, userAgent: String?) {
        if let parameter, let named = OpenPlatform(rawValue: parameter.lowercased()) {
            self = named
            return
        }
        let agent = (userAgent ?? "").lowercased()
        if Self.crawlerTokens.contains(where: agent.contains) {
            self = .preview
        } else if agent.contains("android") {
            self = .android
        } else if agent.contains("iphone") || agent.contains("ipad") || agent.contains("ipod") {
            self = .ios
        } else {
            self = .web
        }
    }
}
