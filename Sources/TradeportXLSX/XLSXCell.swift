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
        var i = 0
        let n = bytes.count
        var negative = false
        if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var digits: [UInt8] = []
        var pointPosition: Int?
        var sawDigit = false
        while i < n {
            let c = bytes[i]
            if c >= 48 && c <= 57 {
                sawDigit = true
                // Leading zeros before the point carry nothing.
                if !(c == 48 && digits.isEmpty && pointPosition == nil) { digits.append(c) }
            } else if c == UInt8(ascii: "."), pointPosition == nil {
                pointPosition = digits.count
            } else {
                break
            }
            i += 1
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if i < n, bytes[i] == UInt8(ascii: "E") || bytes[i] == UInt8(ascii: "e") {
            i += 1
            var expNegative = false
            if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                expNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var sawExponentDigit = false
            while i < n, bytes[i] >= 48, bytes[i] <= 57 {
                exponent = exponent * 10 + Int(bytes[i] - 48)
                guard exponent <= 400 else { return nil }
                sawExponentDigit = true
                i += 1
            }
            guard sawExponentDigit else { return nil }
            if expNegative { exponent = -exponent }
        }
        guard i == n else { return nil }
        // The value is 0.digits × 10^point (the point counted from the left of `digits`).
        var point = (pointPosition ?? digits.count) + exponent
        // Leading zeros after the point move the point, so that `digits` starts significant.
        while digits.first == 48 {
            digits.removeFirst()
            point -= 1
        }
        if digits.isEmpty { return "0" }
        if let significantDigits, digits.count > significantDigits {
            // Round half up at the last significant digit, by hand.
            let roundUp = digits[significantDigits] >= 53
            digits.removeSubrange(significantDigits...)
            if roundUp {
                var k = digits.count - 1
                while k >= 0 && digits[k] == 57 {
                    digits[k] = 48
                    k -= 1
                }
                if k >= 0 {
                    digits[k] += 1
                } else {
                    digits.insert(49, at: 0)
                    point += 1
                }
            }
        }
        var out: [UInt8]
        if point <= 0 {
            out = [48, UInt8(ascii: ".")] + [UInt8](repeating: 48, count: -point) + digits
        } else if point >= digits.count {
            out = digits + [UInt8](repeating: 48, count: point - digits.count)
        } else {
            out = Array(digits[0..<point]) + [UInt8(ascii: ".")] + Array(digits[point...])
        }
        if out.contains(UInt8(ascii: ".")) {
            while out.last == 48 { out.removeLast() }
            if out.last == UInt8(ascii: ".") { out.removeLast() }
        }
        let isZero = out.allSatisfy { $0 == 48 || $0 == UInt8(ascii: ".") }
        if isZero { return "0" }
        return (negative ? "-" : "") + String(decoding: out, as: UTF8.self)
    }
}
