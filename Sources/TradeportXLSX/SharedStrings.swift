import CXLSXSupport
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
        byteCount = start + Int(cx_unescape(storage.assumingMemoryBound(to: UInt8.self) + start, UInt32(byteCount - start)))
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
