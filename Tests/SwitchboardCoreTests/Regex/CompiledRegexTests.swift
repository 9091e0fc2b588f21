import Testing

@testable import SwitchboardCore

/// Runs `regex.search` on the UTF-8 of `text`.
func search(_ regex: CompiledRegex, _ text: String) -> RegexSearchResult {
    var text = text
    return text.withUTF8 { regex.search($0) }
}

/// Runs `regex.fullyMatches` on the UTF-8 of `text`.
func fullyMatches(_ regex: CompiledRegex, _ text: String) -> Bool {
    var text = text
    return text.withUTF8 { regex.fullyMatches($0) }
}

@Suite struct CompiledRegexTests {
    @Test func capturesAreCountedAndRangesAreUTF8Offsets() throws {
        let regex = try CompiledRegex("é/(\\w+)(x)?/(?<n>\\d+)")
        #expect(regex.captureCount == 3)
        #expect(regex.pattern == "é/(\\w+)(x)?/(?<n>\\d+)")
        let result = search(regex, "ab/é/shoes/42")
        // "ab/" is 3 bytes, "é" is 2.
        #expect(result == .match(RegexMatch(groups: [3..<14, 6..<11, nil, 12..<14])))
    }

    @Test func searchIsNotAnchored() throws {
        let regex = try CompiledRegex("shop\\.com")
        #expect(search(regex, "https://www.shop.com/") == .match(RegexMatch(groups: [12..<20])))
        #expect(search(regex, "https://www.shop.org/") == .noMatch)
    }

    @Test func emptySubjectAndEmptyMatch() throws {
        let regex = try CompiledRegex("x?")
        #expect(search(regex, "") == .match(RegexMatch(groups: [0..<0])))
        #expect(fullyMatches(regex, ""))
    }

    @Test func fullyMatchesAnchorsBothEnds() throws {
        let loose = try CompiledRegex("a|ab")
        #expect(fullyMatches(loose, "ab"))
        #expect(!fullyMatches(loose, "abc"))
        #expect(!fullyMatches(loose, "xab"))
        let whole = try CompiledRegex("[0-9]+|[a-f]+", wholeMatch: true)
        #expect(fullyMatches(whole, "123"))
        #expect(fullyMatches(whole, "beef"))
        #expect(!fullyMatches(whole, "12ab"))
        #expect(search(whole, "beef") == .match(RegexMatch(groups: [0..<4])))
        #expect(search(whole, "xbeef") == .noMatch)
    }

    @Test func invalidUTF8IsAnErrorNotACrash() throws {
        let regex = try CompiledRegex(".")
        let bytes: [UInt8] = [0x61, 0xFF, 0x62]
        let result = bytes.withUnsafeBufferPointer { regex.search($0) }
        guard case .failed(let code, let message) = result else {
            Issue.record("expected a PCRE2 error, got \(result)")
            return
        }
        #expect(code < 0)
        #expect(!message.isEmpty)
        #expect(!bytes.withUnsafeBufferPointer { regex.fullyMatches($0) })
    }

    @Test func compileErrorsCarryMessageAndCharacterOffset() {
        #expect(throws: RegexCompileError.self) { try CompiledRegex("(abc") }
        do {
            _ = try CompiledRegex("éé(x")
            Issue.record("expected a compile error")
        } catch {
            #expect(error.message.contains("missing closing parenthesis"))
            #expect(error.offset == 4)  // the end, in characters (PCRE2 reports 6 bytes)
        }
        do {
            _ = try CompiledRegex("a\\Cb")
            Issue.record("\\C must be refused: it could split a UTF-8 character")
        } catch {
            #expect(error.offset > 0)
        }
    }

    @Test func catastrophicBacktrackingHitsTheLimitQuickly() throws {
        let regex = try CompiledRegex("(a+)+$")
        let subject = String(repeating: "a", count: 5_000) + "!"
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(search(regex, subject) == .limitExceeded)
        }
        #expect(elapsed < .seconds(1))
        #expect(!fullyMatches(regex, subject))
    }

    @Test func limitsAreConfigurable() throws {
        let subject = String(repeating: "a", count: 22) + "!"
        let strict = try CompiledRegex("(a+)+$", wholeMatch: false, options: RegexOptions(matchLimit: 1_000))
        #expect(search(strict, subject) == .limitExceeded)
        let generous = try CompiledRegex(
            "(a+)+$", wholeMatch: false, options: RegexOptions(matchLimit: 100_000_000, depthLimit: 100_000))
        #expect(search(generous, subject) == .noMatch)
    }

    @Test func jitIsUsedWhenAvailable() throws {
        // libpcre2 on Debian/Ubuntu x86_64 and arm64 ships with JIT support.
        #expect(try CompiledRegex("a+").isJITCompiled)
    }

    @Test func sharedAcrossConcurrentTasks() async throws {
        let regex = try CompiledRegex("/item/(\\d+)")
        let matches = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    search(regex, "https://x.com/item/\(index)")
                        == .match(RegexMatch(groups: [13..<(19 + String(index).count), 19..<(19 + String(index).count)]))
                }
            }
            var all = true
            for await ok in group { all = all && ok }
            return all
        }
        #expect(matches)
    }
}
