extension SwiftRouteEnumGenerator {
    /// The matcher every generated enum carries: URL splitting (a web host on any port unless
    /// the pattern names one, as the router does), percent-decoding and the
    /// segment tests of the pattern grammar (int: `-?` and up to 19 digits fitting in 64 bits;
    /// uuid: 8-4-4-4-12 hex; regex: the whole decoded segment, with Swift's `Regex`). Static
    /// segments compare by their UTF-8 bytes, never by Unicode equivalence.
    static let runtime = #"""

            // MARK: - Matching (generated)

            private static let segmentAllowed = CharacterSet(
                charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@")

            /// One path segment, percent-encoded.
            private static func segment(_ value: String) -> String {
                value.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? value
            }

            /// A catch-all value (`a/b/c`), each segment percent-encoded.
            private static func path(_ value: String) -> String {
                value.split(separator: "/", omittingEmptySubsequences: false).map { segment(String($0)) }
                    .joined(separator: "/")
            }

            /// A link split the way Switchboard routes it: `scheme:[//authority]path`; for custom schemes
            /// the authority is the first segment, for web links it is the host (lowercased) and port.
            private struct Request {
                var scheme: String
                var host: String
                var port: Int?
                var segments: [String]
                var isWeb: Bool { scheme == "http" || scheme == "https" }

                init?(_ text: String) {
                    guard let colon = text.firstIndex(of: ":") else { return nil }
                    scheme = text[..<colon].lowercased()
                    guard scheme.first?.isLetter == true,
                        scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
                    else { return nil }
                    var rest = text[text.index(after: colon)...]
                    if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
                    let web = scheme == "http" || scheme == "https"
                    var authority = ""
                    if rest.hasPrefix("//") {
                        rest = rest.dropFirst(2)
                        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
                        authority = String(rest[..<slash])
                        rest = rest[slash...]
                    } else if web {
                        return nil
                    }
                    if let at = authority.lastIndex(of: "@") { authority = String(authority[authority.index(after: at)...]) }
                    segments = []
                    port = nil
                    if web {
                        // A port never stops a match: host patterns compare it only when they name one.
                        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
                            port = Int(authority[authority.index(after: colon)...])
                            authority = String(authority[..<colon])
                        }
                        guard !authority.isEmpty else { return nil }
                        host = authority.lowercased()
                    } else {
                        host = authority
                        if !authority.isEmpty {
                            guard let decoded = authority.removingPercentEncoding else { return nil }
                            segments.append(decoded)
                        }
                    }
                    for piece in rest.split(separator: "/") {
                        guard let decoded = String(piece).removingPercentEncoding else { return nil }
                        segments.append(decoded)
                    }
                }

                /// `host:port`, with the scheme's default port when the link names none.
                var hostAndPort: String { "\(host):\(port ?? (scheme == "https" ? 443 : 80))" }
            }

            private enum Segment: Sendable {
                case literal(String)
                case int(String)
                case uuid(String)
                case regex(String, String)
                case param(String)
                case catchAll(String)
            }

            private struct Pattern: Sendable {
                var scheme: String?
                var host: String?
                var segments: [Segment]

                func match(_ request: Request) -> [String: String]? {
                    if let scheme {
                        guard request.scheme == scheme else { return nil }
                        if let host, host != (host.contains(":") ? request.hostAndPort : request.host) { return nil }
                    } else {
                        guard request.isWeb ? appDomains.contains(request.host) : appSchemes.contains(request.scheme) else {
                            return nil
                        }
                    }
                    var captures: [String: String] = [:]
                    for (index, segment) in segments.enumerated() {
                        if case .catchAll(let name) = segment {
                            guard index < request.segments.count else { return nil }
                            captures[name] = request.segments[index...].joined(separator: "/")
                            return captures
                        }
                        guard index < request.segments.count else { return nil }
                        let value = request.segments[index]
                        switch segment {
                        case .literal(let text):
                            // Byte for byte, as the resolver compares static segments: `==` on String
                            // would take `é` and `e` + U+0301 for one segment.
                            guard value.utf8.elementsEqual(text.utf8) else { return nil }
                        case .int(let name):
                            guard value.first != "+", Int64(value) != nil else { return nil }
                            captures[name] = value
                        case .uuid(let name):
                            guard value.count == 36, UUID(uuidString: value) != nil else { return nil }
                            captures[name] = value
                        case .regex(let name, let source):
                            guard let regex = try? Regex(source), (try? regex.wholeMatch(in: value)) != nil else { return nil }
                            captures[name] = value
                        case .param(let name):
                            captures[name] = value
                        case .catchAll:
                            return nil
                        }
                    }
                    return segments.count == request.segments.count ? captures : nil
                }
            }

        """#
}
