extension Router {
    /// The walk of ``match(_:isAppLink:)`` for `url`, step by step, with where it ended.
    public func explain(_ url: ParsedURL, isAppLink: Bool) -> RouterTrace {
        let request = table.request(scheme: url.scheme, host: url.host, port: url.port, isAppLink: isAppLink)
        var recorder = RouterTraceRecorder(table: table, request: request)
        var segments: [String] = []
        do {
            let found = try RouteSegments.withSegments(host: url.isHTTP ? nil : url.host, path: url.path) {
                (buffer) throws(URLParseError) -> Int32 in
                segments = buffer.map(\.string)
                return table.lookup(buffer, request, observer: &recorder)
            }
            let entry = found >= 0 ? entries[Int(found)] : nil
            return RouterTrace(
                url: url.string, isAppLink: isAppLink, segments: segments, steps: recorder.steps, pattern: entry.map(patternText),
                routeID: entry.map { routes.id(at: Int($0.route)) }, error: nil)
        } catch {
            return RouterTrace(
                url: url.string, isAppLink: isAppLink, segments: segments, steps: recorder.steps, pattern: nil, routeID: nil,
                error: error.message)
        }
    }
}
