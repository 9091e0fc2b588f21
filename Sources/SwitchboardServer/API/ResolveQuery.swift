/// What `GET /resolve` needs to know of its query, found in one pass over the raw bytes: the
/// `url` value, and whether the rarer parameters are there at all (they are then read by
/// name, with the usual checks). The common query, a lone `url=…`, is read once and nothing
/// of it is decoded but the URL.
struct ResolveQuery {
    /// How many `url` parameters there are.
    private(set) var urlCount = 0
    /// Where the raw value of the last `url` lies in the query's bytes.
    private(set) var url: Range<Int>?
    /// Whether a `platform`, `appVersion` or `device` parameter is given.
    private(set) var namesTheApp = false
    /// Whether an `explain` parameter is given.
    private(set) var asksToExplain = false
    /// Whether some parameter other than `url` is given.
    private(set) var hasOthers = false

    /// Whether the query is one `url` parameter and nothing else: the common query, which the
    /// decoding of its value checks.
    var isURLAlone: Bool { urlCount == 1 && !hasOthers }

    /// The parameters the app may name itself by.
    static let appParameters = ["platform", "appVersion", "device"]

    /// Scans the query `bytes`, checked or not: a piece that does not decode is no parameter
    /// of these names.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        QueryParameters.forEachParameter(in: bytes) { name, value in
            if QueryParameters.name(name, is: "url") {
                urlCount += 1
                let start = value.baseAddress.map { $0 - base } ?? 0
                url = start..<(start + value.count)
                return true
            }
            hasOthers = true
            if QueryParameters.name(name, is: "explain") {
                asksToExplain = true
            } else if !namesTheApp, Self.appParameters.contains(where: { QueryParameters.name(name, is: $0) }) {
                namesTheApp = true
            }
            return true
        }
    }
}
