import TradeportCore
import TradeportPrimitives
import TradeportSpec

/// Turns a source's bytes into UTF-8 as they are read, so the CSV reader and the field readers
/// only ever see UTF-8: Windows-1251 by table, UTF-16 (either order) with surrogate pairs, each
/// across chunk boundaries. A byte-order mark is dropped; one that contradicts the declared
/// encoding is an error. Bytes that are not text in the encoding become U+FFFD, which no field
/// reader accepts silently (asset codes, numbers and dates refuse it; text keeps it visibly).
final class TextTranscoder {
    private let encoding: TextEncoding
    private let path: String
    private let source: (UnsafeMutableRawBufferPointer) throws -> Int
    /// The source's bytes before transcoding: made at the first refill, so that UTF-8 (handed
    /// through) never allocates it, and at most `inputSize` bytes.
    private var input: [UInt8] = []
    private let inputSize: Int
    private var pending: [UInt8] = []  // UTF-8 made but not handed over yet
    private var pendingOffset = 0
    private var carry: [UInt8] = []  // an odd UTF-16 byte, or a high surrogate's two bytes
    private var bigEndian = false
    private var started = false
    private var finished = false

    /// `inputSize`: the most bytes read from `source` at a time (512 KiB; a probe's head asks for
    /// no more than it holds).
    init(encoding: TextEncoding, path: String, inputSize: Int = 1 << 19, source: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
        self.encoding = encoding
        self.path = path
        self.inputSize = max(inputSize, 16)
        self.source = source
        bigEndian = encoding == .utf16be
    }

    /// Fills `buffer` with UTF-8; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if encoding == .utf8 { return try source(buffer) }
        while pendingOffset == pending.count {
            if finished { return 0 }
            try refill()
        }
        let n = min(buffer.count, pending.count - pendingOffset)
        pending.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + pendingOffset, byteCount: n) }
        pendingOffset += n
        return n
    }

    private func refill() throws {
        pending.removeAll(keepingCapacity: true)
        pendingOffset = 0
        if input.isEmpty { input = [UInt8](uninitializedBytes: inputSize) }
        let n = try input.withUnsafeMutableBytes { try source($0) }
        if n == 0 {
            finished = true
            if !carry.isEmpty { append(0xFFFD) }  // a truncated UTF-16 unit or pair
            carry = []
            return
        }
        var bytes = input[0..<n]
        if !started {
            started = true
            if encoding.isSingleByte {
                if bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
                    throw InputError(path: path, message: "starts with a Unicode byte-order mark, but its format says \(encoding.rawValue)")
                }
            } else {
                let le = bytes.starts(with: [0xFF, 0xFE])
                let be = bytes.starts(with: [0xFE, 0xFF])
                if (le && encoding == .utf16be) || (be && encoding == .utf16le) {
                    throw InputError(
                        path: path, message: "its byte-order mark says UTF-16 \(le ? "little" : "big")-endian, but its format says \(encoding.rawValue)")
                }
                if encoding == .utf16 && !le && !be {
                    throw InputError(
                        path: path, message: "has no UTF-16 byte-order mark; its format says utf-16 (name utf-16le or utf-16be when there is none)")
                }
                if be { bigEndian = true }
                if le || be { bytes = bytes.dropFirst(2) }
            }
        }
        if encoding.isSingleByte {
            let table = encoding == .windows1251 ? Self.windows1251 : Self.windows1252
            for b in bytes {
                if b < 0x80 { pending.append(b) } else { append(UInt32(table[Int(b - 0x80)])) }
            }
            return
        }
        var units = carry + bytes
        carry = []
        if units.count % 2 == 1 { carry = [units.removeLast()] }
        var i = 0
        while i + 1 < units.count {
            let unit = bigEndian ? UInt32(units[i]) << 8 | UInt32(units[i + 1]) : UInt32(units[i + 1]) << 8 | UInt32(units[i])
            i += 2
            if (0xD800..<0xDC00).contains(unit) {
                guard i + 1 < units.count else {
                    carry = Array(units[(i - 2)...]) + carry
                    break
                }
                let low = bigEndian ? UInt32(units[i]) << 8 | UInt32(units[i + 1]) : UInt32(units[i + 1]) << 8 | UInt32(units[i])
                if (0xDC00..<0xE000).contains(low) {
                    i += 2
                    append(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                } else {
                    append(0xFFFD)
                }
            } else if (0xDC00..<0xE000).contains(unit) {
                append(0xFFFD)
            } else {
                append(unit)
            }
        }
    }

    private func append(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80: pending.append(UInt8(scalar))
        case ..<0x800: pending += [0xC0 | UInt8(scalar >> 6), 0x80 | UInt8(scalar & 0x3F)]
        case ..<0x10000: pending += [0xE0 | UInt8(scalar >> 12), 0x80 | UInt8(scalar >> 6 & 0x3F), 0x80 | UInt8(scalar & 0x3F)]
        default:
            pending += [0xF0 | UInt8(scalar >> 18), 0x80 | UInt8(scalar >> 12 & 0x3F), 0x80 | UInt8(scalar >> 6 & 0x3F), 0x80 | UInt8(scalar & 0x3F)]
        }
    }

    /// Windows-1252 bytes 0x80–0xFF as Unicode: 0xA0–0xFF are Latin-1's; 0x81, 0x8D, 0x8F, 0x90 and
    /// 0x9D are not characters (U+FFFD).
    static let windows1252: [UInt16] =
        [
            0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
            0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
            0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
            0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178
        ] + (0xA0...0xFF).map { UInt16($0) }

    /// Windows-1251 bytes 0x80–0xFF as Unicode (0x98 is not a character: U+FFFD).
    static let windows1251: [UInt16] = [
        0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021,
        0x20AC, 0x2030, 0x0409, 0x2039, 0x040A, 0x040C, 0x040B, 0x040F,
        0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0xFFFD, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F,
        0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7,
        0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407,
        0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7,
        0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457,
        0x0410, 0x0411, 0x0412, 0x0413, 0x0414, 0x0415, 0x0416, 0x0417,
        0x0418, 0x0419, 0x041A, 0x041B, 0x041C, 0x041D, 0x041E, 0x041F,
        0x0420, 0x0421, 0x0422, 0x0423, 0x0424, 0x0425, 0x0426, 0x0427,
        0x0428, 0x0429, 0x042A, 0x042B, 0x042C, 0x042D, 0x042E, 0x042F,
        0x0430, 0x0431, 0x0432, 0x0433, 0x0434, 0x0435, 0x0436, 0x0437,
        0x0438, 0x0439, 0x043A, 0x043B, 0x043C, 0x043D, 0x043E, 0x043F,
        0x0440, 0x0441, 0x0442, 0x0443, 0x0444, 0x0445, 0x0446, 0x0447,
        0x0448, 0x0449, 0x044A, 0x044B, 0x044C, 0x044D, 0x044E, 0x044F
    ]
}
