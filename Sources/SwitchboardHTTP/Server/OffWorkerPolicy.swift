/// Which requests the server answers off libmicrohttpd's worker threads, and where: the
/// application's choice, since only it knows which of its requests may block (an admin write
/// that persists with fsync, a reload that builds a whole snapshot).
///
/// Such a request's connection is suspended while ``executor`` runs the handler, so that the
/// worker goes on serving its other connections; when the executor's queue is full the
/// request is answered `503 server_busy` at once.
///
/// ```swift
/// let offWorker = OffWorkerPolicy(executor: executor) { $0.method != "GET" && $0.method != "HEAD" }
/// ```
package struct OffWorkerPolicy: Sendable {
    /// Where the requests run.
    package let executor: BlockingExecutor
    /// Whether a complete request runs on ``executor``; called on the worker thread for every
    /// request, so it must be cheap.
    package let appliesTo: @Sendable (HTTPRequest) -> Bool

    package init(executor: BlockingExecutor, appliesTo: @escaping @Sendable (HTTPRequest) -> Bool) {
        self.executor = executor
        self.appliesTo = appliesTo
    }
}
