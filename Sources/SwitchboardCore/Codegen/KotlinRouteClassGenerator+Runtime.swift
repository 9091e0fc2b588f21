extension KotlinRouteClassGenerator {
    /// The matcher every generated class carries, the Swift enum's runtime translated: URL
    /// splitting (a web host on any port unless the pattern names one), strict percent-decoding (a malformed escape or invalid UTF-8 is no match) and
    /// the segment tests of the pattern grammar (int: ASCII `-?` and digits fitting in 64 bits;
    /// uuid: 8-4-4-4-12 hex, any case; regex: the whole decoded segment, with `kotlin.text.Regex`).
    ///
    /// It keeps to what Kotlin 1.3 through 2.x compile without warnings: ASCII case folding by
    /// `Character.toLowerCase` (the `lowercase()` family is 1.5+, `toLowerCase()` is an error in 2.1),
    /// no trailing commas, no `Char.code`.
    static let runtime = #"""

                // Matching (generated)

                private const val SEGMENT_ALLOWED =
                    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@"
                private const val HEX = "0123456789ABCDEF"
                private val INT_TEXT = Regex("[+-]?[0-9]+")
                private val UUID_TEXT = Regex("[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")

                /** One path segment, percent-encoded (UTF-8, upper-case hex). */
                private fun encodeSegment(value: String): String {
                    val out = StringBuilder()
                    for (byte in value.toByteArray(Charsets.UTF_8)) {
                        val unit = byte.toInt() and 0xFF
                        if (unit < 0x80 && SEGMENT_ALLOWED.indexOf(unit.toChar()) >= 0) {
                            out.append(unit.toChar())
                        } else {
                            out.append('%').append(HEX[unit shr 4]).append(HEX[unit and 15])
                        }
                    }
                    return out.toString()
                }

                /** A catch-all value (`a/b/c`), each segment percent-encoded. */
                private fun encodePath(value: String): String = value.split('/').joinToString("/") { encodeSegment(it) }

                /** `text` with ASCII-and-beyond case folding that does not depend on the default locale. */
                private fun lower(text: String): String {
                    val chars = text.toCharArray()
                    for (index in chars.indices) chars[index] = Character.toLowerCase(chars[index])
                    return String(chars)
                }

                private fun hexValue(char: Char): Int {
                    val index = "0123456789abcdef0123456789ABCDEF".indexOf(char)
                    return if (index < 0) -1 else index % 16
                }

                /** Percent-decodes `text`, or returns null for a malformed escape or invalid UTF-8. */
                private fun decode(text: String): String? {
                    if (text.indexOf('%') < 0) return text
                    val bytes = java.io.ByteArrayOutputStream()
                    var start = 0
                    var index = 0
                    while (index < text.length) {
                        if (text[index] != '%') {
                            index += 1
                            continue
                        }
                        val head = text.substring(start, index).toByteArray(Charsets.UTF_8)
                        bytes.write(head, 0, head.size)
                        if (index + 2 >= text.length) return null
                        val high = hexValue(text[index + 1])
                        val low = hexValue(text[index + 2])
                        if (high < 0 || low < 0) return null
                        bytes.write(high * 16 + low)
                        index += 3
                        start = index
                    }
                    val tail = text.substring(start).toByteArray(Charsets.UTF_8)
                    bytes.write(tail, 0, tail.size)
                    return try {
                        Charsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes.toByteArray())).toString()
                    } catch (error: java.nio.charset.CharacterCodingException) {
                        null
                    }
                }

                /** A `<int>` value (and `Long` conversion of a capture): ASCII digits, fitting in 64 bits. */
                private fun long(text: String): Long? = if (INT_TEXT.matches(text)) text.toLongOrNull() else null

                /** A `<uuid>` value: 8-4-4-4-12 hex (`UUID.fromString` alone accepts shorter groups). */
                private fun uuid(text: String): java.util.UUID? =
                    if (UUID_TEXT.matches(text)) java.util.UUID.fromString(text) else null

                /**
                 * A link split the way Switchboard routes it: `scheme:[//authority]path`; for custom schemes
                 * the authority is the first segment, for web links it is the host (lowercased) and port.
                 */
                private class Request(val scheme: String, val host: String, val port: Int?, val segments: List<String>) {
                    val isWeb: Boolean get() = scheme == "http" || scheme == "https"

                    /** `host:port`, with the scheme's default port when the link names none. */
                    val hostAndPort: String get() = host + ":" + (port ?: if (scheme == "https") 443 else 80)
                }

                private val SCHEME_TEXT = Regex("[A-Za-z][A-Za-z0-9+.-]*")

                private fun request(text: String): Request? {
                    val colon = text.indexOf(':')
                    if (colon < 0) return null
                    val scheme = lower(text.substring(0, colon))
                    if (!SCHEME_TEXT.matches(scheme)) return null
                    var rest = text.substring(colon + 1)
                    val end = rest.indexOfFirst { it == '?' || it == '#' }
                    if (end >= 0) rest = rest.substring(0, end)
                    val web = scheme == "http" || scheme == "https"
                    var authority = ""
                    if (rest.startsWith("//")) {
                        val slash = rest.indexOf('/', 2).let { if (it < 0) rest.length else it }
                        authority = rest.substring(2, slash)
                        rest = rest.substring(slash)
                    } else if (web) {
                        return null
                    }
                    val at = authority.lastIndexOf('@')
                    if (at >= 0) authority = authority.substring(at + 1)
                    val segments = ArrayList<String>()
                    var port: Int? = null
                    if (web) {
                        // A port never stops a match: host patterns compare it only when they name one.
                        val portColon = authority.lastIndexOf(':')
                        if (portColon >= 0 && authority.indexOf(']', portColon) < 0) {
                            port = long(authority.substring(portColon + 1))?.toInt()
                            authority = authority.substring(0, portColon)
                        }
                        if (authority.length == 0) return null
                        authority = lower(authority)
                    } else if (authority.length != 0) {
                        segments.add(decode(authority) ?: return null)
                    }
                    for (piece in rest.split('/')) {
                        if (piece.length == 0) continue
                        segments.add(decode(piece) ?: return null)
                    }
                    return Request(scheme, authority, port, segments)
                }

                private sealed class Segment {
                    class Literal(val text: String) : Segment()
                    class IntValue(val name: String) : Segment()
                    class UuidValue(val name: String) : Segment()
                    class RegexValue(val name: String, val source: String) : Segment() {
                        /** Compiled on first use; a regex the JVM cannot compile matches nothing. */
                        val regex: Regex? by lazy {
                            try {
                                Regex(source)
                            } catch (error: IllegalArgumentException) {
                                null
                            }
                        }
                    }
                    class Param(val name: String) : Segment()
                    class CatchAll(val name: String) : Segment()
                }

                private class Pattern(val scheme: String?, val host: String?, val segments: List<Segment>) {
                    fun match(request: Request): Map<String, String>? {
                        if (scheme != null) {
                            if (request.scheme != scheme) return null
                            if (host != null && host != (if (host.contains(':')) request.hostAndPort else request.host)) return null
                        } else {
                            val accepted = if (request.isWeb) request.host in APP_DOMAINS else request.scheme in APP_SCHEMES
                            if (!accepted) return null
                        }
                        val captures = HashMap<String, String>()
                        for ((index, segment) in segments.withIndex()) {
                            if (index >= request.segments.size) return null
                            val value = request.segments[index]
                            when (segment) {
                                is Segment.CatchAll -> {
                                    captures[segment.name] = request.segments.subList(index, request.segments.size).joinToString("/")
                                    return captures
                                }
                                is Segment.Literal -> if (value != segment.text) return null
                                is Segment.IntValue -> {
                                    if (value.startsWith("+") || long(value) == null) return null
                                    captures[segment.name] = value
                                }
                                is Segment.UuidValue -> {
                                    if (uuid(value) == null) return null
                                    captures[segment.name] = value
                                }
                                is Segment.RegexValue -> {
                                    val regex = segment.regex ?: return null
                                    if (!regex.matches(value)) return null
                                    captures[segment.name] = value
                                }
                                is Segment.Param -> captures[segment.name] = value
                            }
                        }
                        return if (segments.size == request.segments.size) captures else null
                    }
                }

                private class Candidate(val pattern: Pattern, val make: (Map<String, String>) -> __TYPE__?)

        """#
}
