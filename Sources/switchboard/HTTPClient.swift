import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The command line's one HTTP client (URLSession), for `admin` and `applinks check`.
///
/// It follows no redirect: Apple and Google fetch association files without following one, so
/// a drift check must see the redirect as its status, and an admin API answers where it is asked.
enum HTTPClient {
    /// How long a request may take before the server counts as unreachable.
    static let timeout: TimeInterval = 30

    private static let session = URLSession(
        configuration: .ephemeral, delegate: RedirectRefusal(), delegateQueue: nil)

    /// Sends `request` and answers the status and body of the first answer.
    ///
    /// - Throws: what URLSession throws when no answer came (unreachable, TLS refused, timed out).
    static func send(_ request: URLRequest) async throws -> (body: Data, response: HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}

/// Answers every redirect with "do not follow", so the 3xx itself is the answer.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
