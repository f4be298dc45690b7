import TradeportBalances
import TradeportCore
import TradeportFormats
import TradeportSpec
import TradeportXLSX

/// `numbers`: the parsers of numbers, dates and times, and their round trips.
///
/// The whole input is one value, read as: an `ExactDecimal` in several number styles (and what a
/// value read in one style means must be what its canonical text means), a JSON number, a sheet's
/// number (`XLSXNumber.plain`), a date serial and an ISO date of a sheet, a `YYYY-MM-DD` date, an
/// RFC 3339 instant, the balances server's date-time; and, for one input in eight (by a checksum of
/// its bytes: a spec's read allocates megabytes, which the address sanitizer makes slow), as the time,
/// amount and fee of a one-row file read by a spec (one of a few, by the input's length) with the
/// notations specs allow.
enum NumbersHarness {
    static let styles: [NumberStyle] = {
        let styles: [NumberStyle] = [
            .canonical,
            .decimalComma,
            NumberStyle(decimalSeparator: UInt8(ascii: ","), groupingSeparator: [0x20]),
            NumberStyle(decimalSeparator: UInt8(ascii: "."), groupingSeparator: [UInt8(ascii: ",")], allowsPlusSign: true),
            NumberStyle(decimalSeparator: UInt8(ascii: ","), groupingSeparator: [UInt8(ascii: ".")]),
            NumberStyle(decimalSeparator: UInt8(ascii: "."), groupingSeparator: [0xC2, 0xA0]),
            NumberStyle(decimalSeparator: UInt8(ascii: "."), groupingSeparator: [UInt8(ascii: "'")], allowsPlusSign: true)
        ]
        for style in styles {
            guard case .success = ExactDecimal.parse(style.example, style: style) else {
                preconditionFailure("the example \(style.example) of a number style does not read in it")
            }
        }
        return styles
    }()

    /// 10^38: every mantissa's magnitude stays below it.
    static let limit: Int128 = {
        var p: Int128 = 1
        for _ in 0..<38 { p *= 10 }
        return p
    }()

    static func run(_ input: UnsafeRawBufferPointer) {
        for style in styles { checkParse(input, style) }
        let text = String(decoding: input, as: UTF8.self)
        if let valid = String(validating: input, as: UTF8.self) {
            for style in styles.prefix(2) {
                precondition(
                    ExactDecimal.parse(valid, style: style) == ExactDecimal.parse(input, style: style),
                    "parsing the text and its bytes disagree")
            }
            if let d = ExactDecimal(jsonNumber: valid) { checkDecimal(d) }
        }

        checkSheetNumber(input)
        for system in [XLSXWorkbook.DateSystem.from1900, .from1904] {
            if let date = XLSXDateTime(serial: input, system: system) { checkDateTime(date) }
        }
        if let date = XLSXDateTime(iso: input) { checkDateTime(date) }

        checkDates(text)
        if checksum(input) % 8 == 0 { readWithSpec(input) }
    }

    // MARK: Decimals

    static func checkParse(_ bytes: UnsafeRawBufferPointer, _ style: NumberStyle) {
        switch ExactDecimal.parse(bytes, style: style) {
        case .failure(let error):
            precondition(!error.message.isEmpty, "a parse error without a message")
        case .success(let value):
            checkDecimal(value)
            // The same number written canonically (no sign +, no grouping, a decimal point) reads the same.
            let canonical = canonicalText(bytes, style)
            let again = canonical.withUnsafeBytes { ExactDecimal.parse($0, style: .canonical) }
            precondition(
                again == .success(value),
                """
                '\(String(decoding: bytes, as: UTF8.self))' read as \(value) in a style, but its canonical form \
                '\(String(decoding: canonical, as: UTF8.self))' reads as \(again)
                """)
        }
    }

    /// `bytes`, which read as a number in `style`, without a leading `+` and group separators, with
    /// a point for the decimal separator.
    static func canonicalText(_ b: UnsafeRawBufferPointer, _ style: NumberStyle) -> [UInt8] {
        var out: [UInt8] = []
        var i = b.first == UInt8(ascii: "+") ? 1 : 0
        let spaces: [[UInt8]] = [[0x20], [0xC2, 0xA0], [0xE2, 0x80, 0xAF]]
        let separators: [[UInt8]]
        if let g = style.groupingSeparator { separators = g == [0x20] ? spaces : [g] } else { separators = [] }
        outer: while i < b.count {
            for s in separators where i + s.count <= b.count && s.indices.allSatisfy({ b[i + $0] == s[$0] }) {
                i += s.count
                continue outer
            }
            out.append(b[i] == style.decimalSeparator ? UInt8(ascii: ".") : b[i])
            i += 1
        }
        return out
    }

    /// What holds of every `ExactDecimal`: normalized, at most 38 digits, and its text reads back.
    static func checkDecimal(_ d: ExactDecimal) {
        let m = d.mantissa
        precondition((0...ExactDecimal.maxDigits).contains(d.scale), "scale \(d.scale)")
        precondition(m > -limit && m < limit, "mantissa \(m) has more than 38 digits")
        precondition(d.scale == 0 || m % 10 != 0, "\(m) × 10^-\(d.scale) is not normalized")
        precondition(m != 0 || d.scale == 0, "a zero of scale \(d.scale)")
        precondition(d.isZero == (m == 0) && d.isNegative == (m < 0) && d.isPositive == (m > 0))
        let text = d.description
        precondition(ExactDecimal.parse(text, style: .canonical) == .success(d), "\(text) does not read back")
        let comma = String(decoding: text.utf8.map { $0 == UInt8(ascii: ".") ? UInt8(ascii: ",") : $0 }, as: UTF8.self)
        precondition(ExactDecimal.parse(comma, style: .decimalComma) == .success(d), "\(comma) does not read back with a comma")
        precondition(ExactDecimal(jsonNumber: text) == d, "\(text) does not read back as a JSON number")
        precondition(d.negated.negated == d)
        precondition(d.adding(ExactDecimal.zero) == d)
        precondition(d.subtracting(d) == ExactDecimal.zero)
        precondition(d.multiplied(by: ExactDecimal(1)) == d)
        precondition(!(d < d) && (d < ExactDecimal.zero) == d.isNegative)
        if !d.isZero {
            precondition(d.divided(by: d, roundedToScale: 0) == ExactDecimal(1), "\(d) ÷ itself is not 1")
        }
    }

    // MARK: Sheet numbers and dates

    /// A number cell's text: its plain form is plain (a fixed point), the rounded one has at most 15
    /// significant digits, and either, when it fits, is an `ExactDecimal` written the same.
    static func checkSheetNumber(_ bytes: UnsafeRawBufferPointer) {
        let plain = XLSXNumber.plain(bytes)
        let rounded = XLSXNumber.plain(bytes, significantDigits: 15)
        precondition((plain == nil) == (rounded == nil), "plain and rounded disagree on whether it is a number")
        guard let plain, let rounded else { return }
        let viaBody = XLSXNumber.withPlain(bytes) { Array($0) }
        precondition(viaBody == Array(plain.utf8), "withPlain and plain differ")
        for (form, digits) in [(plain, nil), (rounded, 15)] as [(String, Int?)] {
            var copy = form
            let again = copy.withUTF8 { XLSXNumber.plain(UnsafeRawBufferPointer($0), significantDigits: digits) }
            precondition(again == form, "the plain form '\(form)' of '\(String(decoding: bytes, as: UTF8.self))' is not plain: '\(again ?? "nil")'")
            if case .success(let d) = ExactDecimal.parse(form, style: .canonical) {
                checkDecimal(d)
                precondition(d.description == form, "the plain form '\(form)' is not canonical (\(d))")
            }
        }
        var significant = Array(rounded.utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ".") })
        while significant.first == UInt8(ascii: "0") { significant.removeFirst() }
        while significant.last == UInt8(ascii: "0") { significant.removeLast() }
        precondition(significant.count <= 15, "'\(rounded)' has more than 15 significant digits")
    }

    static func checkDateTime(_ t: XLSXDateTime) {
        precondition(
            (1...12).contains(t.month) && t.day >= 1 && t.day <= CalendarDate.daysIn(month: t.month, year: t.year),
            "no such day: \(t)")
        precondition((0..<24).contains(t.hour) && (0..<60).contains(t.minute) && (0..<60).contains(t.second), "no such time: \(t)")
        let text = t.description
        if (1...9999).contains(t.year) {
            var copy = text
            let again = copy.withUTF8 { XLSXDateTime(iso: UnsafeRawBufferPointer($0)) }
            precondition(again == t, "\(text) does not read back as an ISO date")
        }
    }

    // MARK: Dates and times as text

    static func checkDates(_ text: String) {
        if let d = CalendarDate(iso: text) {
            precondition(d.description == text, "\(text) read as \(d)")
            precondition(CalendarDate(daysSinceEpoch: d.daysSinceEpoch) == d, "\(d) does not survive days since the epoch")
        }
        if let t = Timestamp(rfc3339: text) {
            precondition(t.nanoseconds < 1_000_000_000)
            if t.isWritable {
                precondition(Timestamp(rfc3339: t.description) == t, "\(text) read as \(t), which does not read back")
                let (days, second) = t.daysAndSecondOfDay
                precondition((0..<86_400).contains(second) && days * 86_400 + Int64(second) == t.secondsSinceEpoch)
            }
        }
        let bytes = Array(text.utf8)
        if var i = bytes.firstIndex(of: UInt8(ascii: ".")) {
            let start = i
            if let nanoseconds = Timestamp.fraction(bytes, at: &i) {
                precondition(nanoseconds < 1_000_000_000 && i > start && i <= bytes.count)
            }
        }
        if let s = ServerDateTime(text) {
            precondition(ServerDateTime(s.description) == s, "\(text) read as \(s), which does not read back")
            precondition(ServerDateTime(s.textWithSeconds) == s, "\(s.textWithSeconds) does not read back")
            precondition(ServerDateTime(utc: s.utcTimestamp) == s, "\(s) does not survive its UTC instant")
        }
    }

    // MARK: Through a spec

    /// Specs of a transaction a row, in the notations specs allow: values and time pattern.
    static let probes: [SpecReader] = [
        (#"{decimal: ",", thousands: none, timezone: UTC}"#, "yyyy-MM-dd H:mm:ss"),
        (#"{decimal: ".", thousands: ",", timezone: UTC, symbols: ["€", "$", "£"]}"#, "yyyy-MM-dd'T'HH:mm:ss[.F]Z"),
        (#"{decimal: either, parentheses: true, timezone: UTC}"#, "dd/MM/yyyy HH:mm:ss"),
        (#"{decimal: ".", thousands: none, timezone: UTC, exponent: true}"#, "yyyy-MM-dd HH:mm:ss[.F]"),
        (#"{decimal: ",", thousands: space, timezone: Europe/Moscow, empty: ["-", "N/A"]}"#, "dd.MM.yyyy HH:mm:ss 'MSK'")
    ].map { values, pattern in
        let text = """
            tradeport-format: 1
            id: fuzz-numbers
            description: a transaction a row, to read numbers and times with
            source: {type: csv, delimiter: ";", quote: '"', encoding: utf-8, header: none}
            values: \(values)
            detect: {fit: [time, type]}
            columns:
              - {name: time,       position: 1, type: datetime, format: "\(pattern)"}
              - {name: type,       position: 2, map: {Deposit: deposit, Withdraw: withdrawal}}
              - {name: asset,      position: 3, type: asset}
              - {name: status,     position: 6, map: {Complete: complete}}
              - {name: amount,     position: 4, type: decimal, check: transaction-amount}
              - {name: fee,        position: 5, type: decimal, check: non-negative, required: false}
              - {name: externalId, position: 7, type: id}
            rows: {kind: transaction}
            transaction:
              externalId: externalId
              time: time
              type: type
              asset: asset
              amount: amount
              status: status
              fee: {amount: fee, currency: asset}
            """
        do {
            return SpecReader(try SpecLoader.load(text: text, file: "numbers-probe.yaml"))
        } catch {
            fatalError("the numbers harness's probe spec does not load: \(error)")
        }
    }

    /// The input as the time, the amount and the fee of one row.
    static func readWithSpec(_ input: UnsafeRawBufferPointer) {
        var quoted: [UInt8] = [UInt8(ascii: "\"")]
        for b in input {
            quoted.append(b)
            if b == UInt8(ascii: "\"") { quoted.append(b) }
        }
        quoted.append(UInt8(ascii: "\""))
        var row = quoted
        row += Array(";Deposit;BTC;".utf8)
        row += quoted
        row.append(UInt8(ascii: ";"))
        row += quoted
        row += Array(";Complete;1\n".utf8)
        let reader = probes[input.count % probes.count]
        let source = SourceInput(bytes: row, name: "numbers.csv")
        var records = 0
        do {
            try reader.read(source, options: ReadOptions()) { record, rawText in
                records += 1
                switch record {
                case .operation(let operation):
                    blackHole(operation)
                case .rejected(let rejected):
                    precondition(!rejected.errors.isEmpty, "a rejected row without errors")
                default:
                    break
                }
                blackHole(rawText().utf8.count)
            }
        } catch {
            blackHole("\(error)".utf8.count)
        }
        precondition(records <= 1, "one row made \(records) records")
    }
}
