import SwitchboardCore

/// Where `GET /open` sends one request, decided from the resolution and the platform
/// (design.md §11), in this order:
///
/// - `preview` (a link-preview crawler): `200` with the ``LinkPreviewPage``, whenever the web
///   answer below would redirect;
/// - `android`: the route's `open.android`; else, for an app route with an Android app and a
///   custom scheme, an `intent://` URL whose browser fallback is the web page, else the Play
///   Store; else as `web`, with the Play Store before the fallback;
/// - `ios`: the route's `open.ios`; else the web page (a universal link opened the app before
///   the server saw the request); else, for an app route, the App Store; else as `web`;
/// - `web`: the web page, else the fallback of an unmatched URL.
///
/// Every destination, and the app link inside an intent and its fallback, must pass
/// `redirect_allow`; one that does not is skipped for the next.
package struct OpenDecision: Sendable, Hashable {
    /// Why a destination was chosen (the `via` of `resolve --open`).
    package enum Via: String, Sendable, Hashable {
        /// The route's own destination for the platform (`open:`).
        case override
        /// An Android intent for the app's custom-scheme link.
        case intent
        /// The route's web page.
        case web
        /// The app's store page (`store_url`).
        case store
        /// The fallback of an unmatched URL.
        case fallback
    }

    /// What `/open` answers.
    package enum Answer: Sendable, Hashable {
        /// `302` to `location`.
        case redirect(location: String, via: Via)
        /// `200` with the preview page.
        case preview(LinkPreviewPage)
        /// `404 no_redirect`, with why.
        case refused(String)
    }

    /// The platform the decision is for.
    package var platform: OpenPlatform
    /// The answer.
    package var answer: Answer

    /// The decision for a resolved link.
    ///
    /// - Parameters:
    ///   - resolution: the link, resolved (rules and route).
    ///   - platform: who asks.
    ///   - settings: `apps`, `schemes`, `link_preview`.
    ///   - policy: `redirect_allow`.
    package static func decide(
        _ resolution: Resolution, platform: OpenPlatform, settings: ServerSettings, policy: RedirectPolicy
    ) -> OpenDecision {
        let route = resolution.match?.route
        func allowed(_ candidate: String?) -> String? {
            candidate.flatMap { policy.allowedLocation($0)?.uriString }
        }
        let web = allowed(resolution.webURL)
        let fallback = route == nil ? allowed(resolution.fallback) : nil
        let desktop: Answer
        if let web {
            desktop = .redirect(location: web, via: .web)
        } else if let fallback {
            desktop = .redirect(location: fallback, via: .fallback)
        } else if route == nil {
            desktop = .refused(
                resolution.fallback == nil
                    ? "no route matched and no fallback is configured" : "the redirect target is not allowed by redirect_allow")
        } else {
            desktop = .refused(
                resolution.webURL == nil ? "the matched route has no web URL" : "the redirect target is not allowed by redirect_allow")
        }
        let isAppRoute = route?.app == true
        switch platform {
        case .web:
            return OpenDecision(platform: platform, answer: desktop)
        case .preview:
            guard case .redirect(let location, _) = desktop else { return OpenDecision(platform: platform, answer: desktop) }
            let preview = (route?.preview ?? LinkPreview()).over(settings.linkPreview)
            return OpenDecision(platform: platform, answer: .preview(LinkPreviewPage(preview: preview, canonical: location)))
        case .android:
            if let override = allowed(route?.open?.android) {
                return OpenDecision(platform: platform, answer: .redirect(location: override, via: .override))
            }
            let store = isAppRoute ? allowed(settings.apps.android.first?.storeURL) : nil
            if isAppRoute, let app = settings.apps.android.first,
                let url = try? ParsedURL.parse(resolution.rewrittenURL ?? resolution.url),
                let link = AndroidIntentURL.appLink(for: url, schemes: settings.schemes), policy.allows(link.string)
            {
                let intent = AndroidIntentURL.make(link: link, package: app.package, fallback: web ?? store)
                return OpenDecision(platform: platform, answer: .redirect(location: intent, via: .intent))
            }
            if web == nil, let store { return OpenDecision(platform: platform, answer: .redirect(location: store, via: .store)) }
            return OpenDecision(platform: platform, answer: desktop)
        case .ios:
            if let override = allowed(route?.open?.ios) {
                return OpenDecision(platform: platform, answer: .redirect(location: override, via: .override))
            }
            if web == nil, isAppRoute, let store = allowed(settings.apps.ios.first?.storeURL) {
                return OpenDecision(platform: platform, answer: .redirect(location: store, via: .store))
            }
            return OpenDecision(platform: platform, answer: desktop)
        }
    }

    /// The decision as `switchboard resolve --open` prints it: `{"platform", "status",
    /// "location"?, "via"?, "preview"?, "message"?}`.
    package var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("platform", .string(platform.rawValue))]
        switch answer {
        case .redirect(let location, let via):
            members += [("status", .number(302)), ("location", .string(location)), ("via", .string(via.rawValue))]
        case .preview(let page):
            members += [("status", .number(200)), ("preview", page.preview.json)]
            if let canonical = page.canonical { members.append(("canonical", .string(canonical))) }
        case .refused(let message):
            members += [("status", .number(404)), ("message", .string(message))]
        }
        return .object(members)
    }
}
