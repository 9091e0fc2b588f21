/// What the rule pass of a ``RewriteEngine`` reports, rule by rule, in the order it decides.
/// The pass is written once; an observer decides what, if anything, is kept.
///
/// Conformers are structs used as generic arguments, so the pass is specialised for each:
/// `UnobservedResolve` (the resolve of every request) costs nothing, `RuleTraceRecorder` builds
/// the `explain` trace and `OutcomeRecorder` a ``RewriteOutcome``. Every method has an empty
/// default.
protocol RulePassObserver {
    /// Whether the pass visits every rule in order (and reports the ones the literal
    /// prefilter rules out), rather than only the candidates the prefilter and the prefix gate
    /// find. Both give the same answer; `explain` wants every rule.
    static var visitsEveryRule: Bool { get }
    /// Rule `rule` needs text `subject` does not contain (reported only when the pass visits
    /// every rule).
    mutating func ruledOutByPrefilter(_ rule: Int, subject: UnsafeBufferPointer<UInt8>)
    /// Rule `rule`'s `when` does not hold for the request.
    mutating func conditionFailed(_ rule: Int, subject: UnsafeBufferPointer<UInt8>)
    /// Rule `rule`'s regex does not match `subject`.
    mutating func didNotMatch(_ rule: Int, subject: UnsafeBufferPointer<UInt8>)
    /// Rule `rule`'s regex hit a PCRE2 limit on `subject`: counted as no match.
    mutating func hitLimit(_ rule: Int, subject: UnsafeBufferPointer<UInt8>)
    /// Rule `rule` matched `subject` but gives no URL, or its match failed: `error` says why;
    /// the URL before the rule is kept.
    mutating func failed(_ rule: Int, subject: UnsafeBufferPointer<UInt8>, error: RewriteOutcome.RuleError)
    /// Rule `rule` rewrote `subject` into `output` (its `match` in `subject`).
    mutating func fired(
        _ rule: Int, subject: UnsafeBufferPointer<UInt8>, match: RegexMatch, output: UnsafeBufferPointer<UInt8>)
}

extension RulePassObserver {
    // An observer keeps only what it needs: the rest is empty, and vanishes once the pass is
    // specialised for it.
    @inline(__always) mutating func ruledOutByPrefilter(_ rule: Int, subject: UnsafeBufferPointer<UInt8>) {}
    @inline(__always) mutating func conditionFailed(_ rule: Int, subject: UnsafeBufferPointer<UInt8>) {}
    @inline(__always) mutating func didNotMatch(_ rule: Int, subject: UnsafeBufferPointer<UInt8>) {}
    @inline(__always) mutating func hitLimit(_ rule: Int, subject: UnsafeBufferPointer<UInt8>) {}
    @inline(__always) mutating func failed(
        _ rule: Int, subject: UnsafeBufferPointer<UInt8>, error: RewriteOutcome.RuleError
    ) {}
    @inline(__always) mutating func fired(
        _ rule: Int, subject: UnsafeBufferPointer<UInt8>, match: RegexMatch, output: UnsafeBufferPointer<UInt8>
    ) {}
}
