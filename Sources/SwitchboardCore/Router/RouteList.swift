/// The routes of a ``Router``, in registration order, stored compactly: one 48-byte record per
/// route, with modules, targets and default params interned (most routes of a module share
/// them), and the rare extras (several patterns, `web`, `app: false`, `minAppVersion`) apart.
/// ``Route`` values are made on access.
///
/// At a million routes this is what keeps the router within a few hundred bytes per route:
/// an array of `Route` values costs about three times as much.
public struct RouteList: RandomAccessCollection, Sendable {
    /// 48 bytes.
    struct Record: Sendable {
        var id: String
        /// The first (usually the only) pattern.
        var pattern: String
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
    }

    private let records: [Record]
    private let modules: [String]
    private let targets: [JSONValue]
    private let params: [[(name: String, value: String)]]
    private let extras: [Extra]

    /// Stores `routes` compactly.
    public init(_ routes: [Route]) {
        var records: [Record] = []
        records.reserveCapacity(routes.count)
        var modules: [String] = []
        var moduleIndex: [String: Int32] = [:]
        var targets: [JSONValue] = []
        var targetIndex: [JSONValue: Int32] = [:]
        var params: [[(name: String, value: String)]] = [[]]
        var paramsIndex: [[String]: Int32] = [[]: 0]
        var extras: [Extra] = []
        // Consecutive routes mostly share module and target: check the last one first.
        var lastModule: (text: String, index: Int32)?
        var lastTarget: (value: JSONValue, index: Int32)?
        for route in routes {
            let module: Int32
            if let lastModule, lastModule.text == route.module {
                module = lastModule.index
            } else if let known = moduleIndex[route.module] {
                module = known
            } else {
                module = Int32(modules.count)
                modules.append(route.module)
                moduleIndex[route.module] = module
            }
            lastModule = (route.module, module)

            let target: Int32
            if let lastTarget, lastTarget.value == route.target {
                target = lastTarget.index
            } else if let known = targetIndex[route.target] {
                target = known
            } else {
                target = Int32(targets.count)
                targets.append(route.target)
                targetIndex[route.target] = target
            }
            lastTarget = (route.target, target)

            var paramsPosition: Int32 = 0
            if !route.defaultParams.isEmpty {
                let key = route.defaultParams.flatMap { [$0.name, $0.value] }
                if let known = paramsIndex[key] {
                    paramsPosition = known
                } else {
                    paramsPosition = Int32(params.count)
                    params.append(route.defaultParams)
                    paramsIndex[key] = paramsPosition
                }
            }

            var extra: Int32 = -1
            if route.patterns.count != 1 || route.web != nil || !route.app || route.minAppVersion != nil {
                extra = Int32(extras.count)
                extras.append(
                    Extra(patterns: route.patterns, web: route.web, app: route.app, minAppVersion: route.minAppVersion))
            }
            records.append(
                Record(
                    id: route.id, pattern: route.patterns.first ?? "", module: module, target: target,
                    params: paramsPosition, extra: extra))
        }
        self.records = records
        self.modules = modules
        self.targets = targets
        self.params = params
        self.extras = extras
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { records.count }

    /// The route at `index`, made from its record.
    public subscript(index: Int) -> Route {
        let record = records[index]
        let extra = record.extra >= 0 ? extras[Int(record.extra)] : nil
        return Route(
            id: record.id, module: modules[Int(record.module)], patterns: extra?.patterns ?? [record.pattern],
            target: targets[Int(record.target)], defaultParams: params[Int(record.params)], web: extra?.web,
            app: extra?.app ?? true, minAppVersion: extra?.minAppVersion)
    }

    /// The id of the route at `index`, without making the whole route.
    public func id(at index: Int) -> String {
        records[index].id
    }

    /// The pattern number `number` (in the order registered) of the route at `index`.
    func pattern(at index: Int, number: Int) -> String {
        let record = records[index]
        return number == 0 ? record.pattern : extras[Int(record.extra)].patterns[number]
    }

    /// Whether both lists are the very same storage (a router reused as it is).
    package func sharesStorage(with other: RouteList) -> Bool {
        records.withUnsafeBufferPointer { mine in
            other.records.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress }
        }
    }
}
