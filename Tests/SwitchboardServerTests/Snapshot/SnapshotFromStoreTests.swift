import Foundation
import SwitchboardCore
import SwitchboardStore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// A snapshot is built from what the file store saved.
struct SnapshotFromStoreTests {
    @Test func savedStateFeedsTheSnapshot() throws {
        let directory = try TemporaryDirectory()
        let store = FileAdminStore(directory: directory.path)
        try store.save(AdminState.sample)
        let config = try ConfigDirectory.load(from: Package.demoConfig)
        let snapshot = try Snapshot.build(config: config, admin: try store.load())
        let resolution = try snapshot.resolver.resolve("shopapp://flash/12")
        #expect(
            resolution.json.jsonText == """
                {"matched":true,"url":"shopapp://flash/12","routeId":"flash.sale","module":"flash",\
                "pattern":"/flash/:id<int>","target":{"page":"FlashSale","banner":true,"slots":3,\
                "extra":{"z":null,"a":["é \\"q\\" \\\\",-1.5]}},"params":{"campaign":"spring","source":"admin","id":"12"}}
                """)
        #expect(try snapshot.resolver.resolve("shopapp://promo/5").ruleIDs == ["promo"])
    }
}
