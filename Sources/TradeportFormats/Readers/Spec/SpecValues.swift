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

/// A date/time pattern compiled to tokens: `yyyy MM M dd d HH H mm ss`, `[.F]`, literal bytes and
/// quoted literal text (`'UTC'`).
struct CompiledPattern: Sendable {
    enum Token: Sendable {
        case year
        case month(oneOrTwo: Bool)
        case day(oneOrTwo: Bool)
        case hour(oneOrTwo: Bool)
        case minute, second
        /// `[.F]`: an optional `.` and up to nine digits, the fraction of the second.
        case fraction
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
            case UInt8(ascii: "y"): tokens.append(.year)
            case UInt8(ascii: "M"): tokens.append(.month(oneOrTwo: run == 1))
            case UInt8(ascii: "d"): tokens.append(.day(oneOrTwo: run == 1))
            case UInt8(ascii: "H"): tokens.append(.hour(oneOrTwo: run == 1))
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
    func match(_ f: UnsafeRawBufferPointer) -> (date: CalendarDate?, clock: (Int, Int, Int, UInt32)?)? {
        var i = 0
        var year: Int?
        var month: Int?
        var day: Int?
        var hour: Int?
        var minute: Int?
        var second = 0
        var nanoseconds: UInt32 = 0
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
            case .month(let short):
                guard let v = digits(short ? 1 : 2, 2) else { return nil }
                month = v
            case .day(let short):
                guard let v = digits(short ? 1 : 2, 2) else { return nil }
                day = v
            case .hour(let short):
                guard let v = digits(short ? 1 : 2, 2), v < 24 else { return nil }
                hour = v
            case .minute:
                guard let v = digits(2, 2), v < 60 else { return nil }
                minute = v
            case .second:
                guard let v = digits(2, 2), v < 60 else { return nil }
                second = v
            case .fraction:
                guard let n = Timestamp.fraction(f, at: &i) else { return nil }
                nanoseconds = n
            case .literal(let c):
                guard i < f.count, f[i] == c else { return nil }
                i += 1
            }
        }
        guard i == f.count else { return nil }
        var date: CalendarDate?
        if let year, let month, let day {
            guard let d = CalendarDate(year: year, month: month, day: day) else { return nil }
            date = d
        }
        return (date, hour.map { ($0, minute ?? 0, second, nanoseconds) })
    }
}
