/// One non-empty cell of a row, as the sheet holds it: no value goes through a binary float.
///
/// `bytes` points into the reader's buffers and is valid only while the row is being handed
/// over; copy what you keep (`text` does).
public struct XLSXCell {
    public enum Kind: UInt8, Sendable {
        /// Text: a shared string, an inline string or a formula's string result.
        case string
        /// A number, as the exact text the sheet stores (`10000`, `0.55`, `1.5E-3`).
        case number
        /// A number in a date or time style: the serial text (days since the epoch of the workbook's date system).
        case date
        /// A boolean: `0` or `1`.
        case boolean
        /// An error value such as `#DIV/0!`.
        case error
        /// An ISO 8601 date or time (a `t="d"` cell).
        case isoDate
    }

    /// The 0-based column (A is 0).
    public let column: Int
    public let kind: Kind
    public let bytes: UnsafeRawBufferPointer

    public init(column: Int, kind: Kind, bytes: UnsafeRawBufferPointer) {
        self.column = column
        self.kind = kind
        self.bytes = bytes
    }

    /// The cell's text (for a number, its exact stored text).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// A number cell's value as a plain decimal (`1.5E-3` → `0.0015`), exactly as stored, or nil
    /// when it is not one.
    public var plainNumber: String? { XLSXNumber.plain(bytes) }

    /// A number cell's value as the spreadsheet means it: a number cell holds a binary double, which
    /// writers store with up to 17 significant digits (`9379.450000000001` for 9379.45); rounded to
    /// the 15 significant digits a double holds (and Excel shows), by decimal rounding of the text.
    public var number: String? { XLSXNumber.plain(bytes, significantDigits: 15) }
}

/// A row of a sheet: its 1-based number and its non-empty cells in the order the sheet lists
/// them (normally by column). Valid only while it is being handed over.
public struct XLSXRow {
    public let number: Int
    public let cells: UnsafeBufferPointer<XLSXCell>

    public init(number: Int, cells: UnsafeBufferPointer<XLSXCell>) {
        self.number = number
        self.cells = cells
    }

    /// The cell in `column` (0-based), if the row has one.
    public func cell(at column: Int) -> XLSXCell? {
        cells.first { $0.column == column }
    }

    /// The texts of the non-empty cells, joined by tabs (for messages and raw rows).
    public var text: String {
        cells.map(\.text).joined(separator: "\t")
    }
}

/// Numbers as text.
public enum XLSXNumber {
    /// The plain decimal form of a number in a sheet's notation (optional sign, digits, optional
    /// fraction, optional exponent), shifting the point by hand; nil when it is not a number.
    public static func plain(_ bytes: UnsafeRawBufferPointer, significantDigits: Int? = nil) -> String? {
        withPlain(bytes, significantDigits: significantDigits) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the bytes of `plain(bytes, significantDigits:)`, without building a
    /// string: `bytes` themselves when they are already in that form (`1234.5`, `-0.25`), else the
    /// form written into a scratch buffer (`1.5E-3`, `.5`, `+3`, `007.50`, more digits than
    /// `significantDigits`). Nil, without calling `body`, when `bytes` are not a number.
    public static func withPlain<R>(
        _ bytes: UnsafeRawBufferPointer, significantDigits: Int? = nil,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R? {
        if isPlain(bytes, significantDigits: significantDigits) { return try body(bytes) }
        // Room for the digits and, apart, the result: the sign, `0.`, up to 400 zeros the
        // exponent adds, the digits and a carry.
        let digitsRoom = bytes.count + 1
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * bytes.count + 420) { scratch in
            guard let count = writePlain(bytes, significantDigits, digitsAt: scratch.count - digitsRoom, into: scratch) else { return nil }
            return try body(UnsafeRawBufferPointer(start: scratch.baseAddress, count: count))
        }
    }

    /// Whether `bytes` are already what `plain` makes of them: an optional `-`, an integer part
    /// without leading zeros (or `0` before a fraction), a fraction not ending in `0`, no zero
    /// with a sign, and at most `significantDigits` significant digits.
    @inline(__always)
    static func isPlain(_ b: UnsafeRawBufferPointer, significantDigits: Int?) -> Bool {
        let n = b.count
        var i = 0
        if n > 0 && b[0] == UInt8(ascii: "-") { i = 1 }
        let start = i
        while i < n && b[i] &- 48 < 10 { i += 1 }
        let integerDigits = i - start
        guard integerDigits > 0 else { return false }
        let zeroInteger = b[start] == 48
        if zeroInteger && integerDigits > 1 { return false }
        var significant = zeroInteger ? 0 : integerDigits
        if i == n {
            // An integer: `0` is plain, `-0` is not.
            return zeroInteger ? start == 0 : significantDigits.map { significant <= $0 } ?? true
        }
        guard b[i] == UInt8(ascii: ".") else { return false }
        i += 1
        let fractionStart = i
        while i < n && b[i] &- 48 < 10 { i += 1 }
        guard i == n, i > fractionStart, b[n - 1] != 48 else { return false }
        if zeroInteger {
            var first = fractionStart
            while b[first] == 48 { first += 1 }
            significant = n - first
        } else {
            significant += n - fractionStart
        }
        return significantDigits.map { significant <= $0 } ?? true
    }

    /// Writes the plain form of `bytes` at the start of `out`, using `out[digitsAt...]` (room for
    /// `bytes.count + 1` bytes) for the significant digits; its length, or nil for no number.
    private static func writePlain(
        _ bytes: UnsafeRawBufferPointer, _ significantDigits: Int?, digitsAt digitBase: Int,
        into out: UnsafeMutableBufferPointer<UInt8>
    ) -> Int? {
        var i = 0
        let n = bytes.count
        var negative = false
        if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        // The digits go to out[start..<start + count]; one byte before them is kept for a carry.
        var start = digitBase + 1
        var count = 0
        var pointPosition = -1
        var sawDigit = false
        while i < n {
            let c = bytes[i]
            if c &- 48 < 10 {
                sawDigit = true
                // Leading zeros before the point carry nothing.
                if !(c == 48 && count == 0 && pointPosition < 0) {
                    out[start + count] = c
                    count += 1
                }
            } else if c == UInt8(ascii: "."), pointPosition < 0 {
                pointPosition = count
            } else {
                break
            }
            i += 1
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if i < n, bytes[i] == UInt8(ascii: "E") || bytes[i] == UInt8(ascii: "e") {
            i += 1
            var exponentNegative = false
            if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var sawExponentDigit = false
            while i < n, bytes[i] &- 48 < 10 {
                exponent = exponent * 10 + Int(bytes[i] - 48)
                guard exponent <= 400 else { return nil }
                sawExponentDigit = true
                i += 1
            }
            guard sawExponentDigit else { return nil }
            if exponentNegative { exponent = -exponent }
        }
        guard i == n else { return nil }
        // The value is 0.digits × 10^point (the point counted from the left of the digits).
        var point = (pointPosition < 0 ? count : pointPosition) + exponent
        // Leading zeros after the point move the point, so that the digits start significant.
        while count > 0 && out[start] == 48 {
            start += 1
            count -= 1
            point -= 1
        }
        if let significantDigits, count > significantDigits {
            // Round half up at the last significant digit, by hand.
            let roundUp = out[start + significantDigits] >= 53
            count = significantDigits
            if roundUp {
                var k = count - 1
                while k >= 0 && out[start + k] == 57 {
                    out[start + k] = 48
                    k -= 1
                }
                if k >= 0 {
                    out[start + k] += 1
                } else {
                    start -= 1
                    out[start] = 49
                    count += 1
                    point += 1
                }
            }
        }
        // Zeros at the end of a fraction carry nothing.
        if point < count {
            while count > max(point, 0) && out[start + count - 1] == 48 { count -= 1 }
        }
        if count == 0 || out[start] == 48 {
            out[0] = 48
            return 1
        }
        var o = 0
        if negative {
            out[o] = UInt8(ascii: "-")
            o += 1
        }
        if point <= 0 {
            out[o] = 48
            out[o + 1] = UInt8(ascii: ".")
            o += 2
            for _ in 0..<(-point) {
                out[o] = 48
                o += 1
            }
            for k in 0..<count { out[o + k] = out[start + k] }
            o += count
        } else if point >= count {
            for k in 0..<count { out[o + k] = out[start + k] }
            o += count
            for _ in 0..<(point - count) {
                out[o] = 48
                o += 1
            }
        } else {
            for k in 0..<point { out[o + k] = out[start + k] }
            o += point
            out[o] = UInt8(ascii: ".")
            o += 1
            for k in point..<count { out[o + k - point] = out[start + k] }
            o += count - point
        }
        return o
    }
}
