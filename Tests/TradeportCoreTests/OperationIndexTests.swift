import Foundation
import Testing
@testable import TradeportCore

@Suite("Duplicate index and atomic output")
struct OperationIndexTests {
    @Test func tellsNewDuplicateAndConflict() {
        var index = OperationIndex()
        #expect(index.insert(id: "f:1", content: 10, source: 0, row: 1) == .new)
        #expect(index.insert(id: "f:2", content: 10, source: 0, row: 2) == .new)
        #expect(index.insert(id: "f:1", content: 10, source: 1, row: 5) == .duplicate)
        #expect(index.insert(id: "f:1", content: 11, source: 1, row: 6) == .conflict(source: 0, row: 1))
    }

    @Test func growsPastItsInitialSize() {
        var index = OperationIndex(expectedCount: 4)
        for i in 0..<10_000 { #expect(index.insert(id: "f:\(i)", content: UInt64(i), source: 0, row: i + 1) == .new) }
        for i in stride(from: 0, to: 10_000, by: 7) {
            #expect(index.insert(id: "f:\(i)", content: UInt64(i), source: 1, row: 1) == .duplicate)
        }
        #expect(index.count == 10_000)
    }

    func entries(_ dir: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: dir))?.sorted() ?? []
    }

    @Test func outputIsAllOrNothing() throws {
        let dir = NSTemporaryDirectory() + "tradeport-out-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/out.json"
        let discarded = try OutputFile.atomic(path: path)
        try discarded.append { $0.append("partial") }
        try discarded.flush()
        #expect(entries(dir).count == 1)  // only the temporary file
        discarded.discard()
        #expect(entries(dir).isEmpty)

        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let committed = try OutputFile.atomic(path: path)
        try committed.append { $0.append("new") }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        try committed.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(entries(dir) == ["out.json"])
    }

    @Test func outputIntoAMissingDirectoryFails() {
        #expect(throws: OutputError.self) { try OutputFile.atomic(path: "/nonexistent-dir-\(UUID())/out.json") }
    }
}
