/// How libmicrohttpd spreads connections over threads.
///
/// `MHD_USE_AUTO` is never used: libmicrohttpd 0.9.75 would pick one `epoll` thread, which
/// stalls for good when exactly 128 connections become ready at once (see
/// `/work/shared/notes/libmicrohttpd.md`).
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
