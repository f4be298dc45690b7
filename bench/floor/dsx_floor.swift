// The floor for DSX trades -> canonical JSON Lines: how fast a plan that works on byte ranges can
// go on this machine. It is NOT a converter and not part of tradeport: it reads only the layout of
// `formats/dsx-trades.yaml`'s own files (14 fields, `;`, no quotes), checks no more than that each
// number is digits with at most one comma, and writes tradeport's JSON Lines record for each row
// (byte for byte the operation lines `tradeport convert --jsonl` writes for the generated input,
// not its warnings and summary after them: those need exact balances and the source's SHA-256).
// Per row it also does what the conversion does in order: a 64-bit id into an open-addressing set
// (duplicates), and a balance change per account and asset. Pieces of 1 MiB cut at line ends are
// formatted on `threads` threads, at most 8 pieces ahead of the writing; the main thread counts
// duplicates, keeps the balances and writes the pieces in order.
//
//   swiftc -O -swift-version 6 bench/floor/dsx_floor.swift -o .build/dsx-floor
//   .build/dsx-floor IN.csv OUT.jsonl [THREADS]
import Foundation
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write("usage: dsx-floor IN.csv OUT.jsonl [THREADS]\n".data(using: .utf8)!)
    exit(2)
}
let threads = arguments.count > 3 ? max(Int(arguments[3]) ?? 2, 1) : 2
let fd = open(arguments[1], O_RDONLY)
guard fd >= 0 else { perror(arguments[1]); exit(2) }
var info = stat()
fstat(fd, &info)
let size = Int(info.st_size)
nonisolated(unsafe) let input = UnsafeBufferPointer(start: mmap(nil, max(size, 1), PROT_READ, MAP_PRIVATE, fd, 0)!.assumingMemoryBound(to: UInt8.self), count: size)
let fileName = Array(arguments[1].utf8)  // the path as given, as tradeport writes it

// Pieces of about 1 MiB, each ending after a line break.
nonisolated(unsafe) var cuts = [0]
while cuts.last! < size {
    var end = min(cuts.last! + (1 << 20), size)
    while end < size && input[end - 1] != 0x0A { end += 1 }
    cuts.append(end)
}
let pieces = cuts.count - 1

/// What a piece hands to the main thread.
struct Piece {
    var bytes: [UInt8] = []
    var ids: [UInt64] = []
    var changes: [(asset: UInt64, amount: Int64)] = []
    var rows = 0
    var rejected = 0
}

final class Shared: @unchecked Sendable {
    let condition = NSCondition()
    var next = 0
    var written = 0
    var done: [Piece?]
    /// Rows before each piece, known once the pieces before it have been counted.
    var firstRow: [Int]
    init(_ n: Int) {
        done = Array(repeating: nil, count: n)
        firstRow = Array(repeating: -1, count: n + 1)
        firstRow[0] = 1
    }
}
let shared = Shared(pieces)

@Sendable @inline(__always) func put(_ out: inout [UInt8], _ text: StaticString) {
    text.withUTF8Buffer { out.append(contentsOf: $0) }
}

/// Digits with at most one comma, written with a point and without trailing zeros after it.
@Sendable @inline(__always) func putDecimal(_ out: inout [UInt8], _ field: UnsafeBufferPointer<UInt8>) -> Bool {
    var comma = -1
    for (i, b) in field.enumerated() {
        if b == 0x2C {
            if comma >= 0 { return false }
            comma = i
        } else if b &- 0x30 > 9 {
            return false
        }
    }
    guard !field.isEmpty, comma != 0 else { return false }
    var end = field.count
    if comma > 0 {
        while field[end - 1] == 0x30 { end -= 1 }
        if end - 1 == comma { end -= 1 }
    }
    for i in 0..<end { out.append(i == comma ? 0x2E : field[i]) }
    return true
}

@Sendable @inline(__always) func hash(_ field: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in field { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    return h | 1
}

@Sendable func putInteger(_ out: inout [UInt8], _ value: Int) {
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var v = value, n = 0
    withUnsafeMutableBytes(of: &digits) { d in
        repeat { d[n] = UInt8(v % 10) + 0x30; v /= 10; n += 1 } while v > 0
        for i in stride(from: n - 1, through: 0, by: -1) { out.append(d[i]) }
    }
}

@Sendable func format(_ k: Int) -> Piece {
    var piece = Piece()
    let start = cuts[k], end = cuts[k + 1]
    // The rows before this piece: its own line count, then wait for the ones before it.
    var lines = 0
    for i in start..<end where input[i] == 0x0A { lines += 1 }
    if end == size && size > 0 && input[size - 1] != 0x0A { lines += 1 }
    shared.condition.lock()
    while shared.firstRow[k] < 0 { shared.condition.wait() }
    var row = shared.firstRow[k]
    shared.firstRow[k + 1] = row + lines
    shared.condition.broadcast()
    shared.condition.unlock()

    piece.bytes.reserveCapacity((end - start) * 9 / 2)
    var fields = [UnsafeBufferPointer<UInt8>](repeating: UnsafeBufferPointer(start: nil, count: 0), count: 14)
    var i = start
    while i < end {
        var n = 0, from = i
        while i < end && input[i] != 0x0A {
            if input[i] == 0x3B {
                if n < 14 { fields[n] = UnsafeBufferPointer(rebasing: input[from..<i]) }
                n += 1
                from = i + 1
            }
            i += 1
        }
        if n < 14 { fields[n] = UnsafeBufferPointer(rebasing: input[from..<i]) }
        n += 1
        i += 1
        defer { row += 1 }
        let time = fields[0]
        guard n == 14, time.count == 18 || time.count == 19 else { piece.rejected += 1; continue }
        let mark = piece.bytes.count
        put(&piece.bytes, #"{"kind":"trade","portfolio":"main","id":"dsx-trades:"#)
        piece.bytes.append(contentsOf: fields[12])
        put(&piece.bytes, #"","externalId":""#)
        piece.bytes.append(contentsOf: fields[12])
        put(&piece.bytes, #"","time":""#)
        piece.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: time[0..<10]))
        piece.bytes.append(0x54)
        if time.count == 18 { piece.bytes.append(0x30) }
        piece.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: time[11...]))
        put(&piece.bytes, #"Z","side":""#)
        put(&piece.bytes, fields[2].first == 0x42 ? "buy" : "sell")
        put(&piece.bytes, #"","base":""#)
        piece.bytes.append(contentsOf: fields[4])
        put(&piece.bytes, #"","quote":""#)
        piece.bytes.append(contentsOf: fields[6])
        put(&piece.bytes, #"","quantity":""#)
        var valid = putDecimal(&piece.bytes, fields[3])
        put(&piece.bytes, #"","price":""#)
        valid = putDecimal(&piece.bytes, fields[5]) && valid
        put(&piece.bytes, #"","amount":""#)
        valid = putDecimal(&piece.bytes, fields[7]) && valid
        if fields[9].allSatisfy({ $0 == 0x30 || $0 == 0x2C }) {
            valid = !fields[9].isEmpty && fields[9].first != 0x2C && valid
            put(&piece.bytes, #"","accruedInterest":null,"fees":[],"isin":null,"name":null,"venue":"DSX","settlementDate":null,"account":""#)
        } else {
            put(&piece.bytes, #"","accruedInterest":null,"fees":[{"amount":""#)
            valid = putDecimal(&piece.bytes, fields[9]) && valid
            put(&piece.bytes, #"","currency":""#)
            piece.bytes.append(contentsOf: fields[10])
            put(&piece.bytes, #"","kind":"exchange"}],"isin":null,"name":null,"venue":"DSX","settlementDate":null,"account":""#)
        }
        piece.bytes.append(contentsOf: fields[11])
        put(&piece.bytes, #"","orderId":""#)
        piece.bytes.append(contentsOf: fields[13])
        put(&piece.bytes, #"","source":{"path":""#)
        piece.bytes.append(contentsOf: fileName)
        put(&piece.bytes, #"","row":"#)
        putInteger(&piece.bytes, row)
        put(&piece.bytes, ",\"sheet\":null}}\n")
        guard valid else {
            piece.bytes.removeSubrange(mark...)
            piece.rejected += 1
            continue
        }
        piece.ids.append(hash(fields[12]))
        piece.changes.append((hash(fields[4]) ^ hash(fields[11]), Int64(fields[3].count)))
        piece.rows += 1
    }
    return piece
}

for _ in 0..<threads {
    Thread {
        while true {
            shared.condition.lock()
            while shared.next < pieces && shared.next >= shared.written + 8 { shared.condition.wait() }
            let k = shared.next
            shared.next += 1
            shared.condition.unlock()
            if k >= pieces { return }
            let piece = format(k)
            shared.condition.lock()
            shared.done[k] = piece
            shared.condition.broadcast()
            shared.condition.unlock()
        }
    }.start()
}

let out = open(arguments[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
guard out >= 0 else { perror(arguments[2]); exit(2) }
var capacity = 1 << 16
var slots = [UInt64](repeating: 0, count: capacity)
var held = 0, duplicates = 0, rows = 0, rejected = 0
var balances: [UInt64: Int64] = [:]
for k in 0..<pieces {
    shared.condition.lock()
    while shared.done[k] == nil { shared.condition.wait() }
    let piece = shared.done[k]!
    shared.done[k] = nil
    shared.written = k + 1
    shared.condition.broadcast()
    shared.condition.unlock()
    for id in piece.ids {
        if (held + 1) * 4 > capacity * 3 {
            let old = slots
            capacity *= 2
            slots = [UInt64](repeating: 0, count: capacity)
            for s in old where s != 0 {
                var h = Int(truncatingIfNeeded: s &* 0x9E37_79B9_7F4A_7C15) & (capacity - 1)
                while slots[h] != 0 { h = (h + 1) & (capacity - 1) }
                slots[h] = s
            }
        }
        var h = Int(truncatingIfNeeded: id &* 0x9E37_79B9_7F4A_7C15) & (capacity - 1)
        while slots[h] != 0 && slots[h] != id { h = (h + 1) & (capacity - 1) }
        if slots[h] == id { duplicates += 1 } else { slots[h] = id; held += 1 }
    }
    for change in piece.changes { balances[change.asset, default: 0] &+= change.amount }
    rows += piece.rows
    rejected += piece.rejected
    piece.bytes.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(out, bytes.baseAddress! + offset, bytes.count - offset)
            if n <= 0 { perror(arguments[2]); exit(1) }
            offset += n
        }
    }
}
close(out)
FileHandle.standardError.write("dsx-floor: \(rows) rows written, \(rejected) refused, \(duplicates) duplicate ids, \(balances.count) balances\n".data(using: .utf8)!)
