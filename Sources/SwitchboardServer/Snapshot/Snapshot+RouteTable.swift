import SwitchboardCore

extension Snapshot {
    /// One route of the full table: where it comes from, and what it is.
    package struct TableRow: Sendable {
        /// The route's position in the table (the pagination cursor).
        package let index: Int
        package let route: Route
        /// The route file it comes from (`routes.d/product.yaml`), or `admin`.
        package let source: String

        /// The row as `GET /admin/table` lists it.
        package var json: JSONValue {
            var members: [(key: String, value: JSONValue)] = [
                ("id", .string(route.id)), ("module", .string(route.module)),
                ("patterns", .array(route.patterns.map(JSONValue.string))), ("target", route.target),
            ]
            if let web = route.web { members.append(("web", .string(web.text))) }
            members.append(("source", .string(source)))
            return .object(members)
        }
    }

    /// Which routes a listing shows.
    package struct TableFilter: Sendable {
        /// Only routes of this module.
        package var module: String?
        /// Only routes whose id starts with this.
        package var idPrefix: String?

        package init(module: String? = nil, idPrefix: String? = nil) {
            self.module = module
            self.idPrefix = idPrefix
        }
    }

    /// Up to `limit` routes of the full table (config routes in file order, then admin routes)
    /// that pass `filter`, from position `start` on; and the position to go on from, when more
    /// may follow. Only the routes of the page are made, so a page of a table of a million
    /// routes costs its own size (plus the skipped ids when a filter is given).
    package func tablePage(filter: TableFilter, start: Int, limit: Int) -> (rows: [TableRow], next: Int?) {
        let routes = resolver.router.routes
        var rows: [TableRow] = []
        var index = max(0, start)
        while index < routes.count, rows.count < limit {
            if let prefix = filter.idPrefix, !routes.id(at: index).hasPrefix(prefix) {
                index += 1
                continue
            }
            let route = routes[index]
            if let module = filter.module, route.module != module {
                index += 1
                continue
            }
            rows.append(TableRow(index: index, route: route, source: source(ofRouteAt: index)))
            index += 1
        }
        return (rows, index < routes.count ? index : nil)
    }

    /// The route file of the route at `index`, or `admin` for a route pushed over the API.
    package func source(ofRouteAt index: Int) -> String {
        guard index < configRouteCount else { return "admin" }
        return routeFiles.first { index < $0.firstRoute + $0.routeCount }?.path ?? "admin"
    }
}
