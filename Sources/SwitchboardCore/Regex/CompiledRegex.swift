import CPCRE2
import Synchronization

/// A PCRE2 regular expression compiled once (JIT when available) and safe to share.
///
/// This file is the only place in SwitchboardCore that touches PCRE2 pointers. The compiled
/// code and the match context (which carries the match and depth limits of
/// ``RegexOptions``) are created in `init`, never mutated afterwards and freed in `deinit`;
/// PCRE2 documents both as safe for concurrent matching, hence `@unchecked Sendable`.
/// A match borrows the regex's one spare match data when no other thread holds it (an atomic
/// exchange, never a wait) and gives it back after; a match that finds it taken creates and
/// frees its own. So a regex matched by one thread at a time allocates only for its first
/// match, and concurrent callers never share a match data.
///
/// Patterns are compiled in UTF mode with `\C` forbidden, so every group range falls on a
/// UTF-8 character boundary of the subject.
package final class CompiledRegex: @unchecked Sendable {
    /// The source text of the regex.
    package let pattern: String
    /// Number of capture groups.
    package let captureCount: Int
    /// The limits every match runs with.
    package let options: RegexOptions
    /// Whether PCRE2 JIT-compiled the pattern (otherwise its interpreter runs).
    package let isJITCompiled: Bool

    private let wholeMatch: Bool
    private let code: OpaquePointer
    private let matchContext: OpaquePointer
    /// Ovector pairs of one match: group 0 plus every capture group.
    private let ovectorPairs: UInt32
    /// A match data no match is using, kept for the next match; `nil` while one uses it (or
    /// before the first match).
    private let spareMatchData = Atomic<OpaquePointer?>(nil)

    /// Compiles `pattern` (UTF mode) with the default ``RegexOptions``.
    /// - Parameter wholeMatch: anchor at both ends (used for `:name<REGEX>` constraints).
    /// - Throws: ``RegexCompileError`` with PCRE2's message and the offset.
    package convenience init(_ pattern: String, wholeMatch: Bool = false) throws(RegexCompileError) {
        try self.init(pattern, wholeMatch: wholeMatch, options: .default)
    }

    /// Compiles `pattern` (UTF mode) with explicit match limits.
    /// - Parameters:
    ///   - wholeMatch: anchor at both ends (used for `:name<REGEX>` constraints).
    ///   - options: the match and depth limits every match of this regex runs with.
    /// - Throws: ``RegexCompileError`` with PCRE2's message and the offset.
    package init(_ pattern: String, wholeMatch: Bool, options: RegexOptions) throws(RegexCompileError) {
        var compileOptions = PCRE2_UTF | PCRE2_NEVER_BACKSLASH_C
        if wholeMatch {
            compileOptions |= PCRE2_ANCHORED | PCRE2_ENDANCHORED
        }
        var errorCode: Int32 = 0
        var errorOffset = 0
        let compiled: OpaquePointer? =
            pattern.utf8.withContiguousStorageIfAvailable { bytes in
                Self.withBase(bytes) { base in
                    sb_pcre2_compile(base, bytes.count, compileOptions, &errorCode, &errorOffset)
                }
            }
            ?? Array(pattern.utf8).withUnsafeBufferPointer { bytes in
                Self.withBase(bytes) { base in
                    sb_pcre2_compile(base, bytes.count, compileOptions, &errorCode, &errorOffset)
                }
            }
        guard let compiled else {
            throw RegexCompileError(
                message: Self.errorMessage(errorCode),
                offset: Self.characterOffset(ofUTF8Offset: errorOffset, in: pattern))
        }
        guard let context = sb_pcre2_match_context_create(options.matchLimit, options.depthLimit) else {
            sb_pcre2_code_free(compiled)
            throw RegexCompileError(message: "out of memory creating the match context", offset: 0)
        }
        var groups: UInt32 = 0
        _ = sb_pcre2_capture_count(compiled, &groups)

        self.pattern = pattern
        self.captureCount = Int(groups)
        self.options = options
        self.wholeMatch = wholeMatch
        self.code = compiled
        self.matchContext = context
        self.ovectorPairs = groups + 1
        // Any failure (no JIT support on this platform, out of executable memory) leaves the
        // interpreter in charge, which gives the same results.
        self.isJITCompiled = sb_pcre2_jit_compile(compiled, PCRE2_JIT_COMPLETE) == 0
    }

    deinit {
        if let spare = spareMatchData.load(ordering: .acquiring) { sb_pcre2_match_data_free(spare) }
        sb_pcre2_match_context_free(matchContext)
        sb_pcre2_code_free(code)
    }

    /// Whether the regex matches the whole of `bytes` (UTF-8). A match that hits the
    /// match/depth limit counts as no match; so does invalid UTF-8.
    package func fullyMatches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        wholeMatch(bytes) == .matched
    }

    /// How a whole match of `bytes` (UTF-8) went: matched, not matched (invalid UTF-8
    /// included), or stopped by a PCRE2 limit.
    package func wholeMatch(_ bytes: UnsafeBufferPointer<UInt8>) -> WholeMatchResult {
        // Anchoring at match time disables JIT for this call; compile with `wholeMatch` for
        // the fast path.
        let anchoring = wholeMatch ? 0 : PCRE2_ANCHORED | PCRE2_ENDANCHORED
        return match(bytes, options: anchoring) { status, _ in
            if status >= 0 { return .matched }
            switch status {
            case PCRE2_ERROR_MATCHLIMIT, PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_HEAPLIMIT, PCRE2_ERROR_JIT_STACKLIMIT:
                return .limitExceeded
            default:
                return .notMatched
            }
        }
    }

    /// The outcome of ``wholeMatch(_:)``.
    package enum WholeMatchResult: Sendable, Equatable {
        case matched
        case notMatched
        /// A PCRE2 match or depth limit stopped the match: it counts as no match.
        case limitExceeded
    }

    /// Searches `subject` (UTF-8, validated by PCRE2 unless `isValidUTF8`) for the leftmost match.
    /// - Returns: the group ranges of the match, or why there is none: no match, a PCRE2
    ///   limit was hit (see ``RegexOptions``), or another PCRE2 error such as invalid UTF-8.
    /// - Parameter isValidUTF8: the caller guarantees that `subject` is valid UTF-8 (the bytes
    ///   of a `String`), so that PCRE2 skips its check of the whole subject; only then may it
    ///   be `true` (PCRE2's behaviour on invalid UTF-8 it was told is valid is undefined).
    package func search(_ subject: UnsafeBufferPointer<UInt8>, isValidUTF8: Bool = false) -> RegexSearchResult {
        match(subject, options: isValidUTF8 ? PCRE2_NO_UTF_CHECK : 0) { status, ovector in
            if status >= 0, let ovector {
                return .match(groupRanges(ovector, subjectLength: subject.count))
            }
            switch status {
            case PCRE2_ERROR_NOMATCH:
                return .noMatch
            case PCRE2_ERROR_MATCHLIMIT, PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_HEAPLIMIT,
                PCRE2_ERROR_JIT_STACKLIMIT:
                return .limitExceeded
            default:
                return .failed(code: status, message: Self.errorMessage(status))
            }
        }
    }

    // MARK: - PCRE2 plumbing

    /// Runs one match with the spare match data (or a fresh one when another match holds it)
    /// and hands `body` PCRE2's status and ovector.
    private func match<Result>(
        _ subject: UnsafeBufferPointer<UInt8>,
        options matchOptions: UInt32,
        _ body: (Int32, UnsafePointer<Int>?) -> Result
    ) -> Result {
        guard let data = spareMatchData.exchange(nil, ordering: .acquiring) ?? sb_pcre2_match_data_create(ovectorPairs)
        else {
            return body(PCRE2_ERROR_NOMEMORY, nil)
        }
        defer {
            // Kept as the spare unless another match put one back meanwhile.
            if !spareMatchData.compareExchange(expected: nil, desired: data, ordering: .releasing).exchanged {
                sb_pcre2_match_data_free(data)
            }
        }
        let status = Self.withBase(subject) { base in
            sb_pcre2_match(code, base, subject.count, matchOptions, data, matchContext)
        }
        return body(status, sb_pcre2_ovector(data))
    }

    private func groupRanges(_ ovector: UnsafePointer<Int>, subjectLength: Int) -> RegexMatch {
        let unset = sb_pcre2_unset()
        return RegexMatch(count: Int(ovectorPairs)) { pair in
            let start = ovector[2 * pair]
            let end = ovector[2 * pair + 1]
            // PCRE2 can report start > end only with \K in a lookaround, which it refuses by
            // default; stay defensive anyway.
            if start == unset || start < 0 || start > end || end > subjectLength { return nil }
            return start..<end
        }
    }

    /// Calls `body` with a non-nil base address (PCRE2 wants one even for empty input).
    private static func withBase<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafePointer<UInt8>) -> Result
    ) -> Result {
        if let base = bytes.baseAddress {
            return body(base)
        }
        return withUnsafePointer(to: UInt8(0)) { body($0) }
    }

    private static func errorMessage(_ code: Int32) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer in
            guard let base = buffer.baseAddress else { return "PCRE2 error \(code)" }
            let length = sb_pcre2_get_error_message(code, base, buffer.count)
            guard length > 0 else { return "PCRE2 error \(code)" }
            return String(decoding: UnsafeBufferPointer(start: base, count: Int(length)), as: UTF8.self)
        }
    }

    /// PCRE2 reports offsets in UTF-8 code units; users count characters.
    private static func characterOffset(ofUTF8Offset offset: Int, in text: String) -> Int {
        String(decoding: text.utf8.prefix(max(0, offset)), as: UTF8.self).count
    }
}
