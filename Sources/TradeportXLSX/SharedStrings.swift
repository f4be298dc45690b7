import Foundation

/// The workbook's shared strings, held as one block of UTF-8 bytes with an end offset per string.
/// Rich-text runs are joined; phonetic runs (`rPh`) are left out.
final class SharedStrings {
    private(set) var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var byteCount = 0
    private(set) var ends: [Int] = []

    init() {
        capacity = 1 << 16
        storage = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit { storage.deallocate() }

    var count: Int { ends.count }

    @inline(__always)
    func bytes(at index: Int) -> UnsafeRawBufferPointer {
        let start = index == 0 ? 0 : ends[index - 1]
        return UnsafeRawBufferPointer(start: storage + start, count: ends[index] - start)
    }

    func append(_ text: UnsafeRawBufferPointer) {
        reserve(text.count)
        if let base = text.baseAddress { (storage + byteCount).copyMemory(from: base, byteCount: text.count) }
        byteCount += text.count
    }

    /// Ends the string begun at `start`, decoding `_xHHHH_` escapes in place.
    func endString(startingAt start: Int) {
        byteCount = start + OOXMLText.unescape(storage + start, count: byteCount - start)
        ends.append(byteCount)
    }

    private func reserve(_ extra: Int) {
        guard byteCount + extra > capacity else { return }
        var newCapacity = capacity * 2
        while byteCount + extra > newCapacity { newCapacity *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        grown.copyMemory(from: storage, byteCount: byteCount)
        storage.deallocate()
        storage = grown
        capacity = newCapacity
    }
}

final class SharedStringsHandler: XMLEventHandler {
    let strings = SharedStrings()
    private var inItem = false
    private var collecting = false
    private var phoneticDepth = 0
    private var start = 0

    override func startElement(_ name: UnsafePointer<CChar>, _ attributes: XMLAttributes) {
        if XMLName.equals(name, "si") {
            inItem = true
            start = strings.byteCount
        } else if inItem && phoneticDepth == 0 && XMLName.equals(name, "t") {
            collecting = true
        } else if XMLName.equals(name, "rPh") {
            phoneticDepth += 1
        }
    }

    override func endElement(_ name: UnsafePointer<CChar>) {
        if XMLName.equals(name, "t") {
            collecting = false
        } else if XMLName.equals(name, "rPh") {
            phoneticDepth -= 1
        } else if XMLName.equals(name, "si") {
            inItem = false
            strings.endString(startingAt: start)
        }
    }

    override func characters(_ text: UnsafeRawBufferPointer) {
        if collecting { strings.append(text) }
    }
}

/// OOXML's escaping of characters XML cannot hold: `_xHHHH_` is the UTF-16 unit HHHH, `_x005F_` a `_`.
enum OOXMLText {
    /// Decodes the escapes in the `count` bytes at `bytes`, in place; returns the new length.
    static func unescape(_ bytes: UnsafeMutableRawPointer, count: Int) -> Int {
        let b = bytes.assumingMemoryBound(to: UInt8.self)
        guard count >= 7, memchr(bytes, Int32(UInt8(ascii: "_")), count) != nil else { return count }
        var read = 0
        var write = 0
        var pendingHigh: UInt32?
        while read < count {
            if read + 7 <= count, b[read] == UInt8(ascii: "_"), b[read + 1] == UInt8(ascii: "x"), b[read + 6] == UInt8(ascii: "_"),
               let unit = hex4(b + read + 2) {
                read += 7
                if (0xD800..<0xDC00).contains(unit) { pendingHigh = unit; continue }
                var scalar = unit
                if (0xDC00..<0xE000).contains(unit), let high = pendingHigh {
                    scalar = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
                }
                pendingHigh = nil
                guard let s = Unicode.Scalar(scalar) else { continue }
                for byte in UTF8.encode(s)! {
                    b[write] = byte
                    write += 1
                }
                continue
            }
            pendingHigh = nil
            b[write] = b[read]
            write += 1
            read += 1
        }
        return write
    }

    private static func hex4(_ p: UnsafeMutablePointer<UInt8>) -> UInt32? {
        var v: UInt32 = 0
        for i in 0..<4 {
            let c = p[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - 55)
            default: return nil
            }
            v = v << 4 | d
        }
        return v
    }
}
