import Foundation
import SwitchboardCore
import SwitchboardStore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// Admin routes keep `web` and `app` across a save and load of `state.json`.
struct AdminRouteKeysTests {
    @Test("web and app survive state.json")
    func persisted() throws {
        let directory = try TemporaryDirectory()
        let store = FileAdminStore(directory: directory.path)
        let state = AdminState(
            version: 3, rules: [],
            routes: [
                AdminRoute(
                    module: "m",
                    definition: RouteDefinition(
                        id: "r", patterns: ["/r/:id"], web: "https://m.example.com/r/:id", app: false)),
                AdminRoute(module: "m", definition: RouteDefinition(id: "plain", patterns: ["/plain"])),
            ])
        try store.save(state)
        let loaded = try store.load()
        #expect(loaded == state)
        #expect(loaded.routes[0].definition.web == "https://m.example.com/r/:id")
        #expect(loaded.routes[0].definition.app == false)
        #expect(loaded.routes[1].definition.web == nil)
    }
}
