/// The identifier rules every generator shares: how a route id or a param name becomes a
/// name. The languages differ only in their keywords and their string literals
/// (``SwiftIdentifier``, ``KotlinIdentifier``).
enum CodegenIdentifier {
    /// The ASCII letters-and-digits words of `text`: `product.detail-v2` → `product`, `detail`, `v2`.
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { !($0.isLetter || $0.isNumber) || !$0.isASCII }).map(String.init)
    }

    /// `product.detail` → `productDetail`, `*` → `rest`, `2fa` → `_2fa`.
    static func lowerCamelCase(_ text: String) -> String {
        let words = words(text)
        guard let first = words.first else { return "rest" }
        var name = first.prefix(1).lowercased() + first.dropFirst()
        for word in words.dropFirst() { name += word.prefix(1).uppercased() + word.dropFirst() }
        return leadingDigitGuarded(name)
    }

    /// `product.detail` → `ProductDetail`, `*` → `Rest`, `2fa` → `_2fa`.
    static func upperCamelCase(_ text: String) -> String {
        let words = words(text)
        guard !words.isEmpty else { return "Rest" }
        return leadingDigitGuarded(words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined())
    }

    /// Whether `text` can name a generated type as it is: an ASCII letter, then ASCII letters and digits.
    static func isPlainTypeName(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// `name`, or `name` followed by as many `_` as it takes to be outside `used`, which it joins.
    static func unique(_ name: String, in used: inout Set<String>) -> String {
        var name = name
        while !used.insert(name).inserted { name += "_" }
        return name
    }

    private static func leadingDigitGuarded(_ name: String) -> String {
        if let leading = name.first, leading.isNumber { return "_" + name }
        return name
    }
}
