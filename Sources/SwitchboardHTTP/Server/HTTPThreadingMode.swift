/// How libmicrohttpd spreads connections over threads.
///
/// `MHD_USE_AUTO` is never used: libmicrohttpd 0.9.75 would pick one `epoll` thread, which
/// stalls for good when exactly 128 connections become ready at once (`MHD_epoll` loops
/// while `epoll_wait` returns its maximum of 128 events, and the next wait blocks).
///
/// Measured here (2 cores, release build, trivial JSON handler, `wrk -t2` keep-alive,
/// 5 interleaved rounds of 10 s, ratio to nginx `return 200` with the same body):
///
/// | mode | 64 conns | 256 conns | server CPU per request |
/// |---|---|---|---|
/// | poll, 2 workers | 0.92 × | 0.87 × | 9.3–10.4 µs |
/// | poll, 4 workers | 0.88 × | 0.88 × | 10.2–10.3 µs |
/// | epoll, 9 workers (safe at 1,024) | 0.88 × | 0.90 × | 10.8–11.3 µs |
/// | thread per connection | 0.60 × | 0.58 × | 19.5 µs |
/// | nginx | 1 (99k req/s) | 1 (114k req/s) | 6.3–6.5 µs |
///
/// Poll and a safe epoll pool are level at 64 and 256 connections and poll costs less CPU
/// per request, cannot stall and has no `epoll_ctl` race in `MHD_quiesce_daemon`; hence the
/// default. At 1,000 connections the 9-worker epoll pool had the better tail latency
/// (p99 45–80 ms against 100–700 ms), so it is worth measuring for very many clients. The
/// default worker count (``HTTPServerConfiguration/defaultThreadPoolSize(maxConnections:)``)
/// keeps a poll worker to 256 connections, which keeps that tail short.
package enum HTTPThreadingMode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `poll()` in each of `threadPoolSize` worker threads (each owns its connections).
    /// Never stalls; the default.
    case pollThreadPool = "poll"
    /// `epoll` in each of `threadPoolSize` worker threads. Only allowed while
    /// `maxConnections ≤ 126 × threadPoolSize`, so no worker can hold 128 ready connections
    /// (the 0.9.75 stall).
    case epollThreadPool = "epoll"
    /// One thread per connection (plus a `poll()` listener thread); `threadPoolSize` is unused.
    case threadPerConnection = "thread-per-connection"

    /// The most connections one `epoll` worker may own without risking the 0.9.75 stall
    /// (128 events per `epoll_wait`, minus the listen socket and the inter-thread channel).
    package static let epollConnectionsPerWorker = 126

    /// The configuration spelling (`poll`, `epoll`, `thread-per-connection`).
    package var description: String { rawValue }
}
