extension AdminEndpoints {
    /// Registers the admin API in `table`: the reads, every write of ``AdminWrite/all``, and
    /// `POST /admin/preview`.
    static func register(into table: inout EndpointTable, context: ServerContext) {
        let admin = AdminEndpoints(context: context)
        table.add("GET", "/admin/rules", Endpoint("admin", access: .admin(.read)) { admin.listRules($0) })
        table.add("GET", "/admin/routes", Endpoint("admin", access: .admin(.read)) { admin.listRoutes($0) })
        table.add("GET", "/admin/history", Endpoint("admin", access: .admin(.read), handle: admin.history))
        table.add("GET", "/admin/history/{id}", Endpoint("admin", access: .admin(.read), handle: admin.versionState))
        table.add("GET", "/admin/status", Endpoint("admin", access: .admin(.read)) { admin.status($0) })
        table.add("GET", "/admin/table", Endpoint("admin", access: .admin(.read), handle: AdminTableEndpoint(context: context).list))
        let analytics = AnalyticsEndpoint(context: context)
        table.add("GET", "/admin/analytics", Endpoint("admin", access: .admin(.read), handle: analytics.counts))
        table.add("GET", "/admin/analytics/orphans", Endpoint("admin", access: .admin(.read), handle: analytics.orphans))
        table.add("POST", "/admin/preview", Endpoint("admin", access: .admin(.read), handle: PreviewEndpoint(context: context).post))
        AdminWrite.register(into: &table, handle: admin.perform)
    }
}
