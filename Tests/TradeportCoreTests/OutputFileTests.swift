import Foundation
import Testing

@testable import TradeportCore

@Suite("Output files")
struct OutputFileTests {
    /// readdir's records are only as long as their names: reading the whole 256-byte `d_name` of
    /// each ran past the end of its buffer and crashed a conversion over a /tmp of many entries.
    @Test("stale temporaries are found among thousands of entries of every name length, each name read only up to its end")
    func staleTemporariesAmongManyEntries() throws {
        let dir = NSTemporaryDirectory() + "tradeport-stale-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for i in 0..<3_000 {
            let name = String(repeating: "x", count: 1 + i % 200) + "-\(i)"
            #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: nil))
        }
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = ".out.json.tradeport-\(gone.processIdentifier)-AbC123"
        let alive = ".out.json.tradeport-\(getpid())-XyZ789"
        for name in [dead, alive] { #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data("partial".utf8))) }
        OutputFile.removeStaleTemporaries(in: dir, prefix: ".out.json.tradeport-")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(left.count == 3_001)
        #expect(!left.contains(dead))
        #expect(left.contains(alive))
    }
}
