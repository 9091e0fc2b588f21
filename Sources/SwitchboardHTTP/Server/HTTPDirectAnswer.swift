/// What the server's direct answerer made of a request (see ``HTTPServer``'s
/// `directAnswerer`).
///
/// The direct answerer is offered every `GET` request on the worker thread before the handler,
/// with a body buffer that belongs to that thread and is reused from request to request. It
/// exists for the one request that carries the traffic (`GET /resolve`): answered here, it
/// costs no body array and no header list of its own. Whatever it
/// declines goes to the handler, which must answer it exactly as the direct answerer would
/// have, so that the two paths are one API.
package enum HTTPDirectAnswer: Sendable {
    /// Not answered: the handler answers the request.
    case declined
    /// Answered with `status` and `headers`; the body is what the answerer wrote into the buffer
    /// it was given.
    case written(status: Int, headers: [HTTPResponse.Header])
    /// Answered with `status` and a JSON body the answerer wrote into the buffer it was given;
    /// the server adds `Content-Type: application/json; charset=utf-8` itself, from a constant it
    /// need not check or copy (``HTTPResponse/jsonContentType``).
    case json(status: Int)
    /// Answered with a finished response (a cached one keeps its reuse slot); the buffer is
    /// not sent.
    case response(HTTPResponse)
}
