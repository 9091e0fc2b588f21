#if canImport(Glibc)
    import Glibc
#endif

/// The `process_*` series every Prometheus client exports (resident and virtual memory, CPU
/// seconds, open and maximum file descriptors, start time), read from `/proc/self` at each
/// scrape. On a system without `/proc` (macOS) there are none.
struct ProcessMetrics: Sendable {
    var residentMemoryBytes: Double
    var virtualMemoryBytes: Double
    var cpuSeconds: Double
    var openFileDescriptors: Double
    var maxFileDescriptors: Double?
    var startTimeSeconds: Double

    /// The process's figures now, or `nil` where `/proc` cannot tell them.
    static func read() -> ProcessMetrics? {
        #if os(Linux)
            // /proc/self/stat: "pid (comm) state …"; comm may hold spaces and parentheses,
            // so the fields are counted from the last ')'.
            guard let stat = readProcFile("/proc/self/stat"), let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // Field n of proc(5) is fields[n - 3]: utime 14, stime 15, starttime 22, vsize 23, rss 24.
            guard fields.count > 21, let utime = Double(fields[11]), let stime = Double(fields[12]),
                let startTicks = Double(fields[19]), let virtual = Double(fields[20]), let residentPages = Double(fields[21])
            else { return nil }
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
            let bootTime =
                readProcFile("/proc/stat")?.split(separator: "\n").first { $0.hasPrefix("btime ") }
                .flatMap { Double($0.dropFirst("btime ".count)) } ?? 0
            var limit = rlimit()
            let maxFileDescriptors = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Double(limit.rlim_cur) : nil
            return ProcessMetrics(
                residentMemoryBytes: residentPages * pageSize, virtualMemoryBytes: virtual, cpuSeconds: (utime + stime) / ticks,
                openFileDescriptors: Double(openFileDescriptorCount()), maxFileDescriptors: maxFileDescriptors,
                startTimeSeconds: bootTime + startTicks / ticks)
        #else
            return nil
        #endif
    }

    /// The series in the text format.
    func render(into out: inout String) {
        func gauge(_ name: String, _ type: String, _ help: String, _ value: Double) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(Metrics.format(value))\n"
        }
        gauge("process_cpu_seconds_total", "counter", "User and system CPU time spent, in seconds.", cpuSeconds)
        gauge("process_resident_memory_bytes", "gauge", "Resident memory size, in bytes.", residentMemoryBytes)
        gauge("process_virtual_memory_bytes", "gauge", "Virtual memory size, in bytes.", virtualMemoryBytes)
        gauge("process_open_fds", "gauge", "Open file descriptors.", openFileDescriptors)
        if let maxFileDescriptors {
            gauge("process_max_fds", "gauge", "The limit of open file descriptors.", maxFileDescriptors)
        }
        gauge("process_start_time_seconds", "gauge", "Start time of the process since the Unix epoch, in seconds.", startTimeSeconds)
    }

    #if os(Linux)
        /// A whole `/proc` file (their size reads as 0, so it is read to the end).
        private static func readProcFile(_ path: String) -> String? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { _ = Glibc.close(descriptor) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                bytes += buffer[..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Entries of `/proc/self/fd`, less the one the listing itself opens.
        private static func openFileDescriptorCount() -> Int {
            guard let directory = opendir("/proc/self/fd") else { return 0 }
            defer { closedir(directory) }
            var count = 0
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { count += 1 }
            }
            return max(0, count - 1)
        }
    #endif
}
