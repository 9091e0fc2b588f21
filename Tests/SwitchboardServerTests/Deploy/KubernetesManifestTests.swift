import Foundation
import SwitchboardTestSupport
import Testing
import Yams

/// Keeps `deploy/kubernetes/` true to the binary and the image (docs/operations.md "Kubernetes"): every
/// flag the containers pass exists in `switchboard serve --help`, every probe path answers,
/// the container port is the one the Dockerfile exposes and listens on, every mount is a
/// directory the Dockerfile makes, the user and group are the image's, and the ConfigMap is a
/// config `switchboard check` accepts.
@Suite("Kubernetes manifests match the binary and the image", .blockingIO)
struct KubernetesManifestTests {
    /// What the Dockerfile's runtime stage says.
    struct Image {
        var entrypoint: [String] = []
        var command: [String] = []
        var exposed: Set<Int> = []
        var volumes: Set<String> = []
        var directories: Set<String> = []
        var user = ""

        init() throws {
            let text = try String(contentsOf: Repository.root.appendingPathComponent("Dockerfile"), encoding: .utf8)
            // The last stage is the image; continuation lines joined.
            let joined = text.replacingOccurrences(of: "\\\n", with: " ")
            let lines = joined.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let last = lines.lastIndex { $0.hasPrefix("FROM ") } ?? 0
            for line in lines[last...] {
                let rest = line.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
                if line.hasPrefix("ENTRYPOINT ") {
                    entrypoint = try JSONDecoder().decode([String].self, from: Data(rest.utf8))
                } else if line.hasPrefix("CMD ") {
                    command = try JSONDecoder().decode([String].self, from: Data(rest.utf8))
                } else if line.hasPrefix("EXPOSE ") {
                    exposed.formUnion(rest.split(separator: " ").compactMap { Int($0.split(separator: "/")[0]) })
                } else if line.hasPrefix("VOLUME ") {
                    volumes.formUnion(try JSONDecoder().decode([String].self, from: Data(rest.utf8)))
                } else if line.hasPrefix("USER ") {
                    user = rest
                } else if line.hasPrefix("RUN "), let range = rest.range(of: "mkdir -p ") {
                    let words = rest[range.upperBound...].prefix { $0 != "&" }.split(separator: " ")
                    directories.formUnion(words.map(String.init))
                }
            }
        }

        /// What a container of this image runs, as Kubernetes builds it: `command` replaces the
        /// ENTRYPOINT, `args` the CMD (which `command` alone drops).
        func argv(_ container: [String: Any]) -> [String] {
            let given = container["command"] as? [String]
            let args = container["args"] as? [String]
            return (given ?? entrypoint) + (args ?? (given == nil ? command : []))
        }
    }

    /// Every document of `deploy/kubernetes/*.yaml`, by file.
    static func manifests() throws -> [(file: String, document: [String: Any])] {
        let folder = Repository.root.appendingPathComponent("deploy/kubernetes")
        var result: [(String, [String: Any])] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".yaml") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for document in try Yams.load_all(yaml: text) {
                if let document = document as? [String: Any] { result.append((name, document)) }
            }
        }
        return result
    }

    /// The Switchboard containers of every Deployment, with their pod spec.
    static func switchboardContainers() throws -> [(file: String, pod: [String: Any], container: [String: Any])] {
        try manifests().compactMap { file, document -> [(String, [String: Any], [String: Any])]? in
            guard document["kind"] as? String == "Deployment",
                let pod = ((document["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any]
            else { return nil }
            let containers = pod["containers"] as? [[String: Any]] ?? []
            return containers.filter { ($0["image"] as? String ?? "").hasPrefix("switchboard:") }.map { (file, pod, $0) }
        }.flatMap { $0 }
    }

    /// Runs the built `switchboard` with `arguments`; its exit status and output.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try Subprocess.run(try ServerProcess.binaryPath(), arguments)
    }

    @Test("there are Deployments to check: a single replica and a replicated one")
    func deploymentsExist() throws {
        let files = Set(try Self.switchboardContainers().map(\.file))
        #expect(files == ["single.yaml", "replicas.yaml"])
        let kinds = Set(try Self.manifests().compactMap { $0.document["kind"] as? String })
        #expect(kinds.isSuperset(of: ["ConfigMap", "Secret", "Service", "Deployment", "PodDisruptionBudget", "StatefulSet"]))
    }

    @Test("every flag the containers pass exists in `switchboard serve --help`; --listen is the exposed container port")
    func flagsAndPorts() throws {
        let image = try Image()
        let help = try Self.run(["serve", "--help"])
        #expect(help.status == 0, "\(help.output)")
        for (file, _, container) in try Self.switchboardContainers() {
            let argv = image.argv(container)
            #expect(Array(argv.prefix(2)) == ["switchboard", "serve"], "\(file): \(argv)")
            for flag in argv where flag.hasPrefix("--") {
                #expect(help.output.contains(flag.split(separator: "=")[0] + " "), "\(file): \(flag) is not a flag of serve")
            }
            let listen = try #require(argv.firstIndex(of: "--listen").map { argv[$0 + 1] }, "\(file): no --listen")
            let port = try #require(Int(listen.split(separator: ":").last ?? ""))
            let ports = (container["ports"] as? [[String: Any]] ?? []).compactMap { $0["containerPort"] as? Int }
            let adminPort = try Self.adminPort()
            #expect(ports == [port, adminPort], "\(file): containerPort \(ports), --listen \(listen), admin_listen \(adminPort)")
            #expect(image.exposed.contains(port), "\(file): \(port) is not EXPOSEd (\(image.exposed))")
        }
    }

    @Test("every mount is a directory and a VOLUME of the image; --config is the config mount")
    func mountPaths() throws {
        let image = try Image()
        for (file, _, container) in try Self.switchboardContainers() {
            let mounts = (container["volumeMounts"] as? [[String: Any]] ?? []).compactMap { $0["mountPath"] as? String }
            #expect(!mounts.isEmpty)
            for mount in mounts {
                #expect(image.volumes.contains(mount), "\(file): \(mount) is not a VOLUME (\(image.volumes))")
                #expect(image.directories.contains(mount), "\(file): the image makes no \(mount)")
            }
            let argv = image.argv(container)
            let config = argv.firstIndex(of: "--config").map { argv[$0 + 1] }
            #expect(config.map(mounts.contains) == true, "\(file): --config \(config ?? "none") is not mounted")
        }
    }

    @Test("the pod runs as the image's numeric user and group, non-root, with fsGroup so the data volume is writable")
    func securityContext() throws {
        let image = try Image()
        let ids = image.user.split(separator: ":").compactMap { Int($0) }
        try #require(ids.count == 2, "USER \(image.user) is not a numeric user:group (runAsNonRoot needs a number)")
        let (user, group) = (ids[0], ids[1])
        #expect(user != 0)
        for (file, pod, _) in try Self.switchboardContainers() {
            let context = pod["securityContext"] as? [String: Any] ?? [:]
            #expect(context["runAsNonRoot"] as? Bool == true, "\(file)")
            #expect(context["runAsUser"] as? Int == user, "\(file)")
            #expect(context["runAsGroup"] as? Int == group, "\(file)")
            #expect(context["fsGroup"] as? Int == group, "\(file)")
        }
    }

    @Test("the probes are /livez and /readyz on the admin listener's container port, and a running server answers them there")
    func probes() async throws {
        let config = try TestConfig.demo()
        try config.writeSettings(try config.read("switchboard.yaml") + "admin_listen: \"127.0.0.1:0\"\n")
        let server = try await InProcessServer(config: config)
        for (file, pod, container) in try Self.switchboardContainers() {
            let ports = (container["ports"] as? [[String: Any]] ?? [])
            let adminPorts = ports.filter { $0["containerPort"] as? Int == (try? Self.adminPort()) }
            var paths: [String: String] = [:]
            for probe in ["startupProbe", "livenessProbe", "readinessProbe"] {
                let get = try #require((container[probe] as? [String: Any])?["httpGet"] as? [String: Any], "\(file): no \(probe)")
                let path = try #require(get["path"] as? String)
                paths[probe] = path
                let port = get["port"]
                #expect(
                    adminPorts.contains { $0["name"] as? String == port as? String || $0["containerPort"] as? Int == port as? Int },
                    "\(file): \(probe) port \(String(describing: port)) is not the admin listener's container port")
                let response = try server.adminClient().request("GET", path)
                #expect(response.status == 200, "\(file): \(probe) \(path): \(response.dump)")
            }
            #expect(paths["readinessProbe"] == "/readyz" && paths["livenessProbe"] == "/livez", "\(file): \(paths)")
            // The kubelet's SIGKILL must not cut the drain and the grace short.
            let settings = try Self.configMapSettings()
            let needed = (settings["drain_seconds"] as? Int ?? 5) + (settings["shutdown_grace_seconds"] as? Int ?? 10)
            #expect((pod["terminationGracePeriodSeconds"] as? Int ?? 30) > needed, "\(file)")
        }
    }

    @Test("the ConfigMap, laid out as the Deployments mount it, is a config `switchboard check` accepts; secrets referenced exist")
    func configMapChecks() throws {
        let manifests = try Self.manifests()
        let configMap = try #require(manifests.first { $0.document["kind"] as? String == "ConfigMap" }?.document)
        let data = try #require(configMap["data"] as? [String: String])
        let secrets = manifests.filter { $0.document["kind"] as? String == "Secret" }.map(\.document)
        for (file, pod, container) in try Self.switchboardContainers() {
            let directory = try TemporaryDirectory()
            let volumes = pod["volumes"] as? [[String: Any]] ?? []
            let config = try #require(volumes.first { $0["configMap"] != nil }?["configMap"] as? [String: Any])
            for item in config["items"] as? [[String: String]] ?? [] {
                let path = directory.path + "/" + (item["path"] ?? "")
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(try #require(data[item["key"] ?? ""], "\(file): no key \(item)").utf8).write(to: URL(fileURLWithPath: path))
            }
            let check = try Self.run(["check", "--config", directory.path])
            #expect(check.status == 0, "\(file): \(check.output)")
            for variable in container["env"] as? [[String: Any]] ?? [] {
                guard let reference = (variable["valueFrom"] as? [String: Any])?["secretKeyRef"] as? [String: String] else { continue }
                let secret = secrets.first { ($0["metadata"] as? [String: Any])?["name"] as? String == reference["name"] }
                #expect((secret?["stringData"] as? [String: Any])?[reference["key"] ?? ""] != nil, "\(file): \(reference)")
            }
        }
    }

    @Test("the public Service reaches only the public listener; the admin listener is a ClusterIP Service; Prometheus scrapes it")
    func services() throws {
        let services = try Self.manifests().filter { $0.document["kind"] as? String == "Service" }.map(\.document)
        func spec(_ name: String) -> [String: Any] {
            let service = services.first { ($0["metadata"] as? [String: Any])?["name"] as? String == name }
            return service?["spec"] as? [String: Any] ?? [:]
        }
        func targets(_ spec: [String: Any]) -> [String] {
            (spec["ports"] as? [[String: Any]] ?? []).compactMap { $0["targetPort"] as? String }
        }
        #expect(targets(spec("switchboard")) == ["http"])
        #expect(targets(spec("switchboard-internal")) == ["admin"])
        #expect((spec("switchboard-internal")["type"] as? String ?? "ClusterIP") == "ClusterIP")
        let adminPort = try Self.adminPort()
        for (file, _, container) in try Self.switchboardContainers() {
            let named = (container["ports"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "admin" }
            #expect(named?["containerPort"] as? Int == adminPort, "\(file)")
        }
        for (file, document) in try Self.manifests() where document["kind"] as? String == "Deployment" {
            let template = (document["spec"] as? [String: Any])?["template"] as? [String: Any]
            let annotations = (template?["metadata"] as? [String: Any])?["annotations"] as? [String: String] ?? [:]
            #expect(annotations["prometheus.io/port"] == "\(adminPort)", "\(file): \(annotations)")
            #expect(annotations["prometheus.io/path"] == "/metrics", "\(file)")
        }
    }

    /// The port of `admin_listen` in the ConfigMap.
    static func adminPort() throws -> Int {
        let adminListen = try #require(try configMapSettings()["admin_listen"] as? String, "the ConfigMap sets no admin_listen")
        return try #require(Int(adminListen.split(separator: ":").last ?? ""))
    }

    /// `switchboard.yaml` of the ConfigMap.
    static func configMapSettings() throws -> [String: Any] {
        let configMap = try manifests().first { $0.document["kind"] as? String == "ConfigMap" }?.document
        let text = (configMap?["data"] as? [String: String])?["switchboard.yaml"] ?? ""
        return try Yams.load(yaml: text) as? [String: Any] ?? [:]
    }
}
