/// RFC 3339 timestamps (`2026-11-11T00:00:00+08:00`, `2026-11-11T00:00:00.5Z`) as seconds
/// since the Unix epoch, without Foundation. A time zone (`Z` or `±HH:MM`) is required.
enum RFC3339 {
    /// Seconds since 1970-01-01T00:00:00Z, or `nil` when `text` is not an RFC 3339 date-time.
    static func seconds(_ text: String) -> Double? {
        let chars = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= chars.count else { return nil }
            var value = 0
            for byte in chars[start..<(start + count)] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        func byte(_ index: Int, _ expected: Character) -> Bool {
            index < chars.count && Character(UnicodeScalar(chars[index])).lowercased() == String(expected).lowercased()
        }
        guard let year = number(0, 4), byte(4, "-"), let month = number(5, 2), byte(7, "-"), let day = number(8, 2),
            byte(10, "T"), let hour = number(11, 2), byte(13, ":"), let minute = number(14, 2), byte(16, ":"),
            let second = number(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour <= 23, minute <= 59,
            second <= 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if byte(index, ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < chars.count, chars[index] >= 0x30, chars[index] <= 0x39 {
                fraction += Double(chars[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if byte(index, "Z") {
            index += 1
        } else if byte(index, "+") || byte(index, "-") {
            let sign = chars[index] == UInt8(ascii: "-") ? -1 : 1
            guard let hours = number(index + 1, 2), byte(index + 3, ":"), let minutes = number(index + 4, 2),
                hours <= 23, minutes <= 59
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
            index += 6
        } else {
            return nil
        }
        guard index == chars.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
