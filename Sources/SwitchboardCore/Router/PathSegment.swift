/// One decoded segment of a request path: a view into the URL's bytes or into a scratch
/// buffer holding its percent-decoded form. Valid only inside ``RouteSegments/withSegments``.
struct PathSegment {
    var start: UnsafePointer<UInt8>
    var count: Int

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
