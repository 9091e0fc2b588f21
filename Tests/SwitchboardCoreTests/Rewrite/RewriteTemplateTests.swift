import Testing

@testable import SwitchboardCore

@Suite struct RewriteTemplateTests {
    static let url = ParsedURL(
        uncheckedString: "https://user@www.shop.com:8443/search/red%20shoes?page=2&q=a+b#top",
        scheme: "https", userinfo: "user", host: "www.shop.com", port: 8443,
        path: "/search/red%20shoes", query: "page=2&q=a+b", fragment: "top")

    /// Expands `template` after searching `regex` in `url.string`.
    func expand(_ template: String, regex: String = "/search/([^?#]*)", url: ParsedURL = url) throws -> String {
        let compiled = try CompiledRegex(regex)
        let compiledTemplate = try RewriteTemplate(template, captureCount: compiled.captureCount)
        var subject = url.string
        return subject.withUTF8 { bytes in
            guard case .match(let match) = compiled.search(bytes) else { return "<no match>" }
            return compiledTemplate.expand(url: url, subject: bytes, match: match)
        }
    }

    func templateError(_ template: String, captureCount: Int = 2) -> TemplateError? {
        do {
            _ = try RewriteTemplate(template, captureCount: captureCount)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("$scheme|$host|$port|$path|$query|$fragment", "https|www.shop.com|8443|/search/red%20shoes|page=2&q=a+b|top"),
        ("$url", "https://user@www.shop.com:8443/search/red%20shoes?page=2&q=a+b#top"),
        ("$0", "/search/red%20shoes"),
        ("app://s?q=$1", "app://s?q=red%20shoes"),
        ("app://s?q=$#1", "app://s?q=red shoes"),
        ("app://s?q=$$1", "app://s?q=red%2520shoes"),
        ("${host}name", "www.shop.comname"),
        ("$1a", "red%20shoesa"),
        ("$12", "red%20shoes2"),
        ("\\$1 costs \\\\ \\n", "$1 costs \\ \\n"),
        ("trailing\\", "trailing\\"),
        ("$#query", "page=2&q=a+b"),
        ("$$query", "page%3D2%26q%3Da%2Bb"),
        ("$$url", "https%3A%2F%2Fuser%40www.shop.com%3A8443%2Fsearch%2Fred%2520shoes%3Fpage%3D2%26q%3Da%2Bb%23top"),
        ("héllo/$host/ü", "héllo/www.shop.com/ü"),
        ("", ""),
    ])
    func expands(template: String, expected: String) throws {
        #expect(try expand(template) == expected)
    }

    @Test func absentPartsAreEmpty() throws {
        let bare = ParsedURL(uncheckedString: "myapp:x", scheme: "myapp", path: "x")
        #expect(try expand("[$host][$port][$query][$fragment][$path]", regex: "x", url: bare) == "[][][][][x]")
    }

    @Test func unmatchedGroupIsEmptyAndBracedGroupsReachPastNine() throws {
        let regex = "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)?"
        let url = ParsedURL(uncheckedString: "myapp://abcdefghij", scheme: "myapp", host: "abcdefghij")
        #expect(try expand("${10}-${11}-$10-$${10}-${0}", regex: regex, url: url) == "j--a0-j-abcdefghij")
    }

    @Test func encodingCoversUTF8AndKeepsUnreserved() throws {
        let url = ParsedURL(uncheckedString: "myapp://x/Aé~-._ !*'()/", scheme: "myapp", host: "x", path: "/Aé~-._ !*'()/")
        #expect(try expand("$$path", regex: "x", url: url) == "%2FA%C3%A9~-._%20%21%2A%27%28%29%2F")
    }

    @Test(arguments: [
        ("a%2Fb%C3%A9", "a/bé"),
        ("a+b", "a+b"),
        ("100%", "100%"),
        ("%zz%41", "%zz%41"),
        ("%4", "%4"),
        ("%FF%FE", "%FF%FE"),  // not UTF-8: unchanged
        ("%41%42", "AB"),
    ])
    func percentDecoding(value: String, expected: String) throws {
        let url = ParsedURL(uncheckedString: "myapp://x/\(value)", scheme: "myapp", host: "x", path: "/\(value)")
        #expect(try expand("$#1", regex: "x/(.*)", url: url) == expected)
    }

    @Test func fallbackExpansionHasEmptyGroups() throws {
        let template = try RewriteTemplate("https://m.example.com/?from=$$url&g=$0", captureCount: 0)
        let url = ParsedURL(uncheckedString: "myapp://a/b?c=d", scheme: "myapp", host: "a", path: "/b", query: "c=d")
        #expect(template.expand(url: url) == "https://m.example.com/?from=myapp%3A%2F%2Fa%2Fb%3Fc%3Dd&g=")
    }

    @Test func segmentsAreCompiledOnce() throws {
        let template = try RewriteTemplate("a$1b$$host/c", captureCount: 1)
        #expect(
            template.segments == [
                .literal(Array("a".utf8)), .variable(.group(1), .none), .literal(Array("b".utf8)),
                .variable(.host, .queryEncoded), .literal(Array("/c".utf8)),
            ])
        #expect(template.highestGroup == 1)
        #expect(template.source == "a$1b$$host/c")
    }

    @Test(arguments: [
        ("app://$foo", 6, "unknown variable `$foo`"),
        ("x$hostname", 1, "unknown variable `$hostname`"),
        ("x$$bar", 1, "unknown variable `$$bar`"),
        ("x${bar}", 1, "unknown variable `${bar}`"),
        ("abc$", 3, "`$` at the end"),
        ("abc$$", 3, "`$$` at the end"),
        ("abc$#", 3, "`$#` at the end"),
        ("a$/b", 1, "`$` must be followed by a variable"),
        ("a$ b", 1, "`$` must be followed by a variable"),
        ("a$$$1", 1, "`$$` must be followed by a variable"),
        ("ab${12", 2, "unclosed `${`"),
        ("ab$${", 2, "unclosed `$${`"),
        ("a${}", 1, "empty `${}`"),
        ("a${1x}", 1, "`${1x}` is not a group number"),
        ("a$3", 1, "`$3` refers to a group the regex does not have (it has 2 capture groups)"),
        ("é$${12}", 1, "`$${12}` refers to a group"),
        ("${99999999999999999999}", 0, "refers to a group"),
        ("ü\\$ü$nope", 4, "unknown variable `$nope`"),
    ])
    func validation(template: String, offset: Int, message: String) throws {
        let error = try #require(templateError(template))
        #expect(error.offset == offset)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func groupCountIsRespected() {
        #expect(templateError("$1", captureCount: 0) != nil)
        #expect(templateError("$0", captureCount: 0) == nil)
        #expect(templateError("${1}", captureCount: 1) == nil)
        #expect(templateError("$1", captureCount: 1)?.message == nil)
        #expect(templateError("$2", captureCount: 1)?.message.contains("it has 1 capture group)") == true)
    }
}
