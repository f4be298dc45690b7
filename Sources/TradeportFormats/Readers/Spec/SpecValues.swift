import TradeportCore
import TradeportSpec

/// A column's value once read.
enum SpecValue {
    case text(String)
    case decimal(ExactDecimal)
    case asset(AssetCode)
    case instant(Timestamp)
    case date(CalendarDate)
    case clock(hour: Int, minute: Int, second: Int, nanoseconds: UInt32)
    case mapped(String)
    case pair(AssetCode, AssetCode)
    /// Several values of a `list:` column's cell, each read as the column's type.
    case list([SpecValue])

    var text: String? {
        switch self {
        case .text(let t), .mapped(let t): return t
        case .asset(let a): return a.text
        case .decimal(let d): return d.description
        default: return nil
        }
    }
}

/// A date/time pattern compiled to tokens: `yyyy yy MM M MMM MMMM dd d HH H hh h mm ss a xxx XXX`, `[.F]`,
/// literal bytes and quoted literal text (`'UTC'`).
struct CompiledPattern: Sendable {
    enum Token: Sendable {
        case year
        /// `yy`: two digits of a year of this century (`25` is 2025), as Binance's 2025 exports write it.
        case year2
        case month(oneOrTwo: Bool)
        /// `MMM` or `MMMM`: a month's name, short or long, in any of `MonthNames`' languages and
        /// any case, with an optional `.` after a short one (`Jan.`, `jan`, `JANUARY`, `mrt`).
        case monthName
        case day(oneOrTwo: Bool)
        case hour(oneOrTwo: Bool)
        /// `h`/`hh`: an hour of a 12-hour clock, 1 to 12, which `a` places.
        case hour12(oneOrTwo: Bool)
        /// `a`: AM or PM (any case, with or without dots: `am`, `P.M.`).
        case meridiem
        case minute, second
        /// `[.F]`: an optional `.` and up to nine digits, the fraction of the second.
        case fraction
        /// `xxx`: an offset from UTC, `+02:00` or `+0200` (`-05:00`); `XXX` takes `Z` for UTC too.
        /// The time is then that instant, whatever the spec's zone.
        case offset(z: Bool)
        case literal(UInt8)
    }
    let tokens: [Token]
    let text: String

    init(_ pattern: String) {
        text = pattern
        var tokens: [Token] = []
        let b = Array(pattern.utf8)
        var i = 0
        while i < b.count {
            if b[i] == UInt8(ascii: "["), i + 3 < b.count, b[i + 1] == UInt8(ascii: "."), b[i + 2] == UInt8(ascii: "F"), b[i + 3] == UInt8(ascii: "]") {
                tokens.append(.fraction)
                i += 4
                continue
            }
            if b[i] == UInt8(ascii: "'") {
                // Quoted literal text: `'UTC'`, `'T'`; `''` is a quote.
                var j = i + 1
                while j < b.count && b[j] != UInt8(ascii: "'") { j += 1 }
                if j == i + 1 { tokens.append(.literal(b[i])) }
                for k in (i + 1)..<max(i + 1, j) { tokens.append(.literal(b[k])) }
                i = min(j + 1, b.count)
                continue
            }
            var j = i
            while j < b.count && b[j] == b[i] { j += 1 }
            let run = j - i
            switch b[i] {
            case UInt8(ascii: "y"): tokens.append(run == 2 ? .year2 : .year)
            case UInt8(ascii: "M") where run >= 3:
                tokens.append(.monthName)
                // The name takes its own dot (`Jan.`), and a name that has none (`May`) still reads.
                if j < b.count, b[j] == UInt8(ascii: ".") { j += 1 }
            case UInt8(ascii: "M"): tokens.append(.month(oneOrTwo: run == 1))
            case UInt8(ascii: "d"): tokens.append(.day(oneOrTwo: run == 1))
            case UInt8(ascii: "H"): tokens.append(.hour(oneOrTwo: run == 1))
            case UInt8(ascii: "h"): tokens.append(.hour12(oneOrTwo: run == 1))
            case UInt8(ascii: "a"): tokens.append(.meridiem)
            case UInt8(ascii: "x") where run == 3: tokens.append(.offset(z: false))
            case UInt8(ascii: "X") where run == 3: tokens.append(.offset(z: true))
            case UInt8(ascii: "m"): tokens.append(.minute)
            case UInt8(ascii: "s"): tokens.append(.second)
            default:
                for k in i..<j { tokens.append(.literal(b[k])) }
            }
            i = j
        }
        self.tokens = tokens
    }

    /// The fields read from `f`, or nil when it does not follow the pattern (or is no real date).
    func match(_ f: UnsafeRawBufferPointer) -> (date: CalendarDate?, clock: (Int, Int, Int, UInt32)?, offset: Int?)? {
        var i = 0
        var year: Int?
        var month: Int?
        var day: Int?
        var hour: Int?
        var minute: Int?
        var second = 0
        var nanoseconds: UInt32 = 0
        var hour12: Int?
        var afternoon = false
        var offset: Int?
        func digits(_ min: Int, _ max: Int) -> Int? {
            var v = 0
            var n = 0
            while n < max, i < f.count, f[i] &- 48 < 10 {
                v = v * 10 + Int(f[i] - 48)
                i += 1
                n += 1
            }
            return n >= min ? v : nil
        }
        for token in tokens {
            switch token {
            case .year:
                guard let v = digits(4, 4) else { return nil }
                year = v
            case .year2:
                guard let v = digits(2, 2) else { return nil }
                year = 2000 + v
            case .month(let short):
                guard let v = digits(short ? 1 : 2, 2) else { return nil }
                month = v
            case .day(let short):
                guard let v = digits(short ? 1 : 2, 2) else { return nil }
                day = v
            case .hour(let short):
                guard let v = digits(short ? 1 : 2, 2), v < 24 else { return nil }
                hour = v
            case .hour12(let short):
                guard let v = digits(short ? 1 : 2, 2), (1...12).contains(v) else { return nil }
                hour12 = v
            case .meridiem:
                guard let (pm, length) = MonthNames.meridiem(f, at: i) else { return nil }
                afternoon = pm
                i += length
            case .monthName:
                guard let (m, length) = MonthNames.month(f, at: i) else { return nil }
                month = m
                i += length
                if i < f.count, f[i] == UInt8(ascii: ".") { i += 1 }
            case .minute:
                guard let v = digits(2, 2), v < 60 else { return nil }
                minute = v
            case .second:
                guard let v = digits(2, 2), v < 60 else { return nil }
                second = v
            case .fraction:
                guard let n = Timestamp.fraction(f, at: &i) else { return nil }
                nanoseconds = n
            case .offset(let z):
                // `Z`, or a sign, two digits of hours and two of minutes, with or without `:`.
                if z, i < f.count, f[i] == UInt8(ascii: "Z") {
                    offset = 0
                    i += 1
                    continue
                }
                guard i < f.count, f[i] == UInt8(ascii: "+") || f[i] == UInt8(ascii: "-") else { return nil }
                let negative = f[i] == UInt8(ascii: "-")
                i += 1
                guard let h = digits(2, 2), h <= 18 else { return nil }
                if i < f.count, f[i] == UInt8(ascii: ":") { i += 1 }
                guard let m = digits(2, 2), m < 60 else { return nil }
                offset = (negative ? -1 : 1) * (h * 3600 + m * 60)
            case .literal(let c):
                guard i < f.count, f[i] == c else { return nil }
                i += 1
            }
        }
        guard i == f.count else { return nil }
        // 12 AM is midnight, 12 PM noon.
        if let h = hour12 { hour = h % 12 + (afternoon ? 12 : 0) }
        var date: CalendarDate?
        if let year, let month, let day {
            guard let d = CalendarDate(year: year, month: month, day: day) else { return nil }
            date = d
        }
        return (date, hour.map { ($0, minute ?? 0, second, nanoseconds) }, offset)
    }
}

/// The names of months and the AM/PM markers a date pattern's `MMM` and `a` read: English,
/// Dutch, German, French, Spanish, Portuguese, Italian and Russian, short and long, compared
/// without regard to case (ASCII letters, and the accented and Cyrillic ones of these names).
enum MonthNames {
    /// Each month's names (1 = January), lower case.
    static let names: [[String]] = [
        ["jan", "january", "januari", "januar", "jän", "janv", "janvier", "ene", "enero", "janeiro", "gen", "gennaio", "янв", "январь", "января"],
        [
            "feb", "february", "februari", "februar", "févr", "fevr", "février", "fevrier", "febrero", "fev", "fevereiro", "febbraio", "фев", "февраль",
            "февраля"
        ],
        ["mar", "march", "mrt", "maart", "mär", "mrz", "märz", "mars", "marzo", "março", "marco", "мар", "март", "марта"],
        ["apr", "april", "avr", "avril", "abr", "abril", "aprile", "апр", "апрель", "апреля"],
        ["may", "mei", "mai", "mayo", "maio", "mag", "maggio", "май", "мая"],
        ["jun", "june", "juni", "juin", "junio", "junho", "giu", "giugno", "июн", "июнь", "июня"],
        ["jul", "july", "juli", "juil", "juillet", "julio", "julho", "lug", "luglio", "июл", "июль", "июля"],
        ["aug", "august", "augustus", "août", "aout", "ago", "agosto", "авг", "август", "августа"],
        ["sep", "sept", "september", "septembre", "septiembre", "set", "setembro", "settembre", "сен", "сент", "сентябрь", "сентября"],
        ["oct", "october", "okt", "oktober", "octobre", "octubre", "out", "outubro", "ott", "ottobre", "окт", "октябрь", "октября"],
        ["nov", "november", "novembre", "noviembre", "novembro", "ноя", "ноябрь", "ноября"],
        ["dec", "december", "dez", "dezember", "déc", "décembre", "decembre", "dic", "diciembre", "dezembro", "dicembre", "дек", "декабрь", "декабря"]
    ]

    /// Every name as lower-case UTF-8 with its month, longest first (so `june` is read before `jun`).
    static let table: [(bytes: [UInt8], month: Int)] = names.enumerated()
        .flatMap { (i, list) in list.map { (Array($0.utf8), i + 1) } }
        .sorted { $0.bytes.count > $1.bytes.count }

    /// The month whose name begins `f` at `i`, and the name's length in bytes. A name must not
    /// run on into a letter (`mars` is March, `marsh` nothing).
    static func month(_ f: UnsafeRawBufferPointer, at i: Int) -> (Int, Int)? {
        for (name, month) in table where i + name.count <= f.count {
            var k = 0
            while k < name.count, lower(f, i + k) == name[k] { k += 1 }
            guard k == name.count else { continue }
            let end = i + k
            if end < f.count, isLetterStart(f[end]) { continue }
            return (month, k)
        }
        return nil
    }

    /// `AM`/`PM` (or `a.m.`, `p.m.`, any case) at `i`: whether afternoon, and the length read.
    static func meridiem(_ f: UnsafeRawBufferPointer, at i: Int) -> (Bool, Int)? {
        guard i < f.count else { return nil }
        let first = f[i] | 0x20
        guard first == UInt8(ascii: "a") || first == UInt8(ascii: "p") else { return nil }
        var k = i + 1
        if k < f.count, f[k] == UInt8(ascii: ".") { k += 1 }
        guard k < f.count, f[k] | 0x20 == UInt8(ascii: "m") else { return nil }
        k += 1
        if k < f.count, f[k] == UInt8(ascii: "."), f[i + 1] == UInt8(ascii: ".") { k += 1 }
        return (first == UInt8(ascii: "p"), k - i)
    }

    /// The byte at `k` lower-cased: ASCII letters, and the two-byte UTF-8 upper-case letters of
    /// Latin-1 (À–Þ) and Cyrillic (А–Я) these names use.
    private static func lower(_ f: UnsafeRawBufferPointer, _ k: Int) -> UInt8 {
        let b = f[k]
        if b >= 0x41 && b <= 0x5A { return b | 0x20 }
        // The second byte of a two-byte letter: its case is told by the pair.
        if k > 0, b & 0xC0 == 0x80 {
            let lead = f[k - 1]
            if lead == 0xC3, b >= 0x80, b <= 0x9E, b != 0x97 { return b + 0x20 }  // À–Þ → à–þ
            if lead == 0xD0, b >= 0x90, b <= 0x9F { return b + 0x20 }  // А–П → а–п
            if lead == 0xD0, b >= 0xA0, b <= 0xAF { return b - 0x20 }  // Р–Я → р–я (second byte)
        }
        if b == 0xD0, k + 1 < f.count, f[k + 1] >= 0xA0, f[k + 1] <= 0xAF { return 0xD1 }  // Р–Я → р–я (the lead changes)
        return b
    }

    /// Whether a letter (ASCII, or the lead byte of a multi-byte character) starts at a byte.
    private static func isLetterStart(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A || b >= 0xC0 }
}
