/// RFC 3339 timestamps (`2026-11-11T00:00:00+08:00`, `2026-11-11T00:00:00.5Z`) as seconds
/// since the Unix epoch, without Foundation. A time zone (`Z` or `±HH:MM`) is required.
package enum RFC3339 {
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

    /// `seconds` since the Unix epoch as an RFC 3339 date-time in UTC, to the second
    /// (`2026-11-10T17:00:00Z`), for traces.
    package static func string(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let date = "\(year)-\(two(month))-\(two(day))"
        return date + "T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (the inverse of
    /// ``daysFromCivil(year:month:day:)``, by the same algorithm).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
