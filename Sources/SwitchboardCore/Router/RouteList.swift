/// The routes of a ``Router``, in registration order, stored compactly: one 28-byte record per
/// route, the ids and first patterns of all routes in one UTF-8 buffer, modules, targets and
/// default params interned (most routes of a module share them), and the rare extras (several
/// patterns, `web`, `app: false`, `minAppVersion`, `preview`, `open`) apart. ``Route`` values are made on access.
///
/// This keeps the router to about 150 bytes per route, trie included (158 B at 100k routes in
/// the core benchmark), where an array of `Route` values cost about three times as much; and since nothing per route is
/// a heap object of its own, the memory freed after a (re)load is not pinned by small
/// long-lived blocks scattered through it, so it can go back to the system.
public struct RouteList: RandomAccessCollection, Sendable {
    /// 28 bytes.
    struct Record: Sendable {
        /// Where the id starts in `text`; the first pattern follows it.
        var textStart: UInt32
        var idCount: UInt32
        var patternCount: UInt32
        var module: Int32
        var target: Int32
        var params: Int32
        /// An index into `extras`, or -1: one pattern, no `web`, `app: true`, no `minAppVersion`.
        var extra: Int32
    }

    struct Extra: Sendable {
        var patterns: [String]
        var web: WebURLTemplate?
        var app: Bool
        var minAppVersion: String?
        var preview: LinkPreview?
        var open: PlatformDestinations?
    }

    /// How modules, targets and default params were numbered so far: what ``append(_:interning:)``
    /// needs besides the list, kept by whoever fills it (the router does not keep it).
    struct Interning: Sendable {
        fileprivate var modules = Interner<String>()
        fileprivate var targets = Interner<JSONValue>()
        fileprivate var params: [[String]: Int32] = [[]: 0]
    }

    private var records: [Record] = []
    private var text: [UInt8] = []
    private var modules: [String] = []
    private var targets: [JSONValue] = []
    private var params: [[(name: String, value: String)]] = [[]]
    private var extras: [Extra] = []
    /// The constant parts of a matched answer, written once per module and per target so that
    /// an answer copies each in one block: per module `,"module":"…","pattern":`, per target
    /// `,"target":…,"params":{`, both in `answerPieces` at the ranges below.
    private var answerPieces: [UInt8] = []
    private var moduleAnswerPieces: [PieceRange] = []
    private var targetAnswerPieces: [PieceRange] = []

    /// Where one piece of `answerPieces` is.
    private struct PieceRange: Sendable {
        var start: UInt32
        var count: UInt32
    }

    /// An empty list, to fill with ``append(_:interning:)``.
    init() {}

    /// Stores `routes` compactly.
    public init(_ routes: [Route]) {
        var interning = Interning()
        reserveCapacity(routes.count)
        for route in routes { append(route, interning: &interning) }
        shrinkToFit()
    }

    /// Makes room for `count` more routes.
    mutating func reserveCapacity(_ count: Int) {
        records.reserveCapacity(records.count + count)
        // Ids and first patterns take some 20–60 bytes a route; room never written costs no
        // memory pages, and ``shrinkToFit()`` gives the rest back.
        text.reserveCapacity(text.count + 64 * count)
    }

    /// Appends `route` (its index is the count before).
    mutating func append(_ route: Route, interning: inout Interning) {
        // Consecutive routes mostly share module and target: the interners check the last one first.
        let module = interning.modules.index(of: route.module, in: &modules)
        let target = interning.targets.index(of: route.target, in: &targets)
        if moduleAnswerPieces.count < modules.count {
            moduleAnswerPieces.append(
                appendAnswerPiece { writer in
                    writer.writeSyntax(#","module":"#)
                    writer.writeString(route.module)
                    writer.writeSyntax(#","pattern":"#)
                })
        }
        if targetAnswerPieces.count < targets.count {
            targetAnswerPieces.append(
                appendAnswerPiece { writer in
                    writer.writeSyntax(#","target":"#)
                    writer.write(route.target)
                    writer.writeSyntax(#","params":{"#)
                })
        }

        var paramsPosition: Int32 = 0
        if !route.defaultParams.isEmpty {
            let key = route.defaultParams.flatMap { [$0.name, $0.value] }
            if let known = interning.params[key] {
                paramsPosition = known
            } else {
                paramsPosition = Int32(params.count)
                params.append(route.defaultParams)
                interning.params[key] = paramsPosition
            }
        }

        var extra: Int32 = -1
        if route.patterns.count != 1 || route.web != nil || !route.app || route.minAppVersion != nil || route.preview != nil
            || route.open != nil
        {
            extra = Int32(extras.count)
            extras.append(
                Extra(
                    patterns: route.patterns, web: route.web, app: route.app, minAppVersion: route.minAppVersion,
                    preview: route.preview, open: route.open))
        }
        let start = UInt32(text.count)
        var id = route.id
        id.withUTF8 { text.append(contentsOf: $0) }
        var pattern = route.patterns.first ?? ""
        pattern.withUTF8 { text.append(contentsOf: $0) }
        records.append(
            Record(
                textStart: start, idCount: UInt32(route.id.utf8.count), patternCount: UInt32(pattern.utf8.count),
                module: module, target: target, params: paramsPosition, extra: extra))
    }

    /// Appends to `answerPieces` what `write` writes, and returns where it went.
    private mutating func appendAnswerPiece(_ write: (inout JSONWriter) -> Void) -> PieceRange {
        let start = answerPieces.count
        var writer = JSONWriter(appendingTo: &answerPieces)
        write(&writer)
        writer.finish(into: &answerPieces)
        return PieceRange(start: UInt32(start), count: UInt32(answerPieces.count - start))
    }

    /// Gives back the spare capacity of the large arrays (once the last route is appended).
    mutating func shrinkToFit() {
        records = records.withoutSpareCapacity()
        text = text.withoutSpareCapacity()
        answerPieces = answerPieces.withoutSpareCapacity()
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { records.count }

    /// The route at `index`, made from its record.
    public subscript(index: Int) -> Route {
        let record = records[index]
        let extra = record.extra >= 0 ? extras[Int(record.extra)] : nil
        return Route(
            id: id(at: index), module: modules[Int(record.module)],
            patterns: extra?.patterns ?? [string(Int(record.textStart + record.idCount), record.patternCount)],
            target: targets[Int(record.target)], defaultParams: params[Int(record.params)], web: extra?.web,
            app: extra?.app ?? true, minAppVersion: extra?.minAppVersion, preview: extra?.preview, open: extra?.open)
    }

    /// Whether some route has a `minAppVersion` and a `web` page (so that the asking app's
    /// version can change an answer), without making the routes.
    package var hasVersionGatedRoutes: Bool {
        extras.contains { $0.minAppVersion != nil && $0.web != nil }
    }

    /// The id of the route at `index`, without making the whole route.
    public func id(at index: Int) -> String {
        let record = records[index]
        return string(Int(record.textStart), record.idCount)
    }

    /// Whether the route at `index` has the id whose UTF-8 bytes are `id`.
    func idEquals(at index: Int, _ id: UnsafeBufferPointer<UInt8>) -> Bool {
        let record = records[index]
        guard Int(record.idCount) == id.count else { return false }
        return text.withUnsafeBufferPointer { text in
            text[Int(record.textStart)..<Int(record.textStart) + id.count].elementsEqual(id)
        }
    }

    /// The pattern number `number` (in the order registered) of the route at `index`.
    func pattern(at index: Int, number: Int) -> String {
        let record = records[index]
        guard number == 0 else { return extras[Int(record.extra)].patterns[number] }
        return string(Int(record.textStart + record.idCount), record.patternCount)
    }

    /// Writes the members of a matched answer that depend on the route alone, and opens its
    /// params: `,"routeId":…,"module":…,"pattern":…,"target":…,"params":{`, for the route at
    /// `index` found by its pattern number `number`.
    func writeAnswerMembers(at index: Int, pattern number: Int, to writer: inout JSONWriter) {
        let record = records[index]
        writer.writeSyntax(#","routeId":"#)
        writeText(Int(record.textStart), record.idCount, to: &writer)
        answerPieces.withUnsafeBufferPointer { pieces in
            let module = moduleAnswerPieces[Int(record.module)]
            writer.writeJSON(UnsafeBufferPointer(rebasing: pieces[Int(module.start)..<Int(module.start + module.count)]))
            if number == 0 {
                writeText(Int(record.textStart + record.idCount), record.patternCount, to: &writer)
            } else {
                writer.writeString(extras[Int(record.extra)].patterns[number])
            }
            let target = targetAnswerPieces[Int(record.target)]
            writer.writeJSON(UnsafeBufferPointer(rebasing: pieces[Int(target.start)..<Int(target.start + target.count)]))
        }
    }

    /// Calls `body` with the default params of the route at `index`, read in place.
    func withDefaultParams<Result>(
        at index: Int, _ body: (UnsafeBufferPointer<(name: String, value: String)>) -> Result
    ) -> Result {
        params.withUnsafeBufferPointer { lists in lists[Int(records[index].params)].withUnsafeBufferPointer(body) }
    }

    /// The `web` page of the route at `index` (whose answer carries `webURL`, and `openWeb`
    /// for an app below `minAppVersion`), or `nil` when it has none.
    func webPage(at index: Int) -> (web: WebURLTemplate, minAppVersion: String?)? {
        let extra = records[index].extra
        guard extra >= 0, let web = extras[Int(extra)].web else { return nil }
        return (web, extras[Int(extra)].minAppVersion)
    }

    private func writeText(_ start: Int, _ count: UInt32, to writer: inout JSONWriter) {
        text.withUnsafeBufferPointer { writer.writeString(utf8: UnsafeBufferPointer(rebasing: $0[start..<start + Int(count)])) }
    }

    private func string(_ start: Int, _ count: UInt32) -> String {
        text.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<start + Int(count)]), as: UTF8.self) }
    }

    /// Whether both lists are the very same storage (a router reused as it is).
    package func sharesStorage(with other: RouteList) -> Bool {
        records.withUnsafeBufferPointer { mine in
            other.records.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress }
        }
    }
}

/// Numbers distinct values in order of first appearance, checking the last value first (runs of
/// equal values are the common case: routes of one module, one target).
private struct Interner<Value: Hashable & Sendable>: Sendable {
    private var indexByValue: [Value: Int32] = [:]
    private var last: (value: Value, index: Int32)?

    /// The number of `value` in `values`, appended to them if it was not seen before.
    mutating func index(of value: Value, in values: inout [Value]) -> Int32 {
        if let last, last.value == value { return last.index }
        let index: Int32
        if let known = indexByValue[value] {
            index = known
        } else {
            index = Int32(values.count)
            values.append(value)
            indexByValue[value] = index
        }
        last = (value, index)
        return index
    }
}
