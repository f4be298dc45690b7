import Foundation
import Testing
import TradeportCore
import TradeportFormats

/// Built-in specs load when first needed; detection's quick look at header texts must answer as the
/// loaded spec does, on every sample and real export there is.
@Suite("Built-in specs, loaded when needed")
struct BuiltInSpecReaderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let shared = URL(fileURLWithPath: root).deletingLastPathComponent().appendingPathComponent("shared").path

    /// Every file of formats/samples, and of ../shared/realworld and ../shared/samples when present.
    static var files: [String] {
        var folders = [root + "/formats/samples"]
        for sub in ["realworld", "samples"] {
            let dir = shared + "/" + sub
            guard let names = try? FileManager.default.subpathsOfDirectory(atPath: dir) else { continue }
            folders += names.map { dir + "/" + $0 }.filter {
                var d: ObjCBool = false
                return FileManager.default.fileExists(atPath: $0, isDirectory: &d) && d.boolValue
            }
            folders.append(dir)
        }
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map { folder + "/" + $0 }.filter {
                var d: ObjCBool = false
                return FileManager.default.fileExists(atPath: $0, isDirectory: &d) && !d.boolValue
            }
        }.sorted()
    }

    @Test("the quick look and the loaded spec give the same answer, for every built-in spec and every file")
    func quickLookAnswersAsTheSpec() throws {
        let lazy = FormatRegistry.builtIn.readers.compactMap { $0 as? BuiltInSpecReader }
        #expect(lazy.count >= 20)
        let files = Self.files
        #expect(files.count >= 50, "\(files.count) files")
        if !FileManager.default.fileExists(atPath: Self.shared + "/realworld") {
            print("skipped: ../shared/realworld is absent; only formats/samples compared")
        }
        for path in files {
            for reader in lazy {
                // Fresh inputs: a probe keeps what detection made of its head.
                let quick = try SourceInput(path: path)
                let full = try SourceInput(path: path)
                #expect(reader.detect(quick.probe) == reader.loaded.detect(full.probe), "\(reader.id) on \(path)")
            }
        }
    }

    @Test("a file is recognized without loading the specs whose header texts it lacks")
    func detectionLoadsFewSpecs() throws {
        let input = try SourceInput(path: Self.root + "/formats/samples/dsx-trades-example.csv")
        let lazy = FormatRegistry.builtIn.readers.compactMap { $0 as? BuiltInSpecReader }
        let answered = lazy.filter { reader in
            if case .noMatch(let why) = reader.detect(input.probe), why.hasPrefix("no line among the first holds the header") { return true }
            return false
        }
        #expect(answered.count * 2 > lazy.count, "\(answered.count) of \(lazy.count) answered by the quick look")
    }

    @Test("a header after a long preamble is found as far as the spec's header.find.within allows (Vanguard's holdings)")
    func headerAfterManyHoldings() throws {
        let sample = try String(contentsOfFile: Self.root + "/formats/samples/vanguard-example.csv", encoding: .utf8)
        var lines = sample.components(separatedBy: "\n")
        let holdings = (0..<120).map { "87654321,VANGUARD TEST FUND \($0),VT\($0 % 26),1,1.0,1.00," }
        lines.insert(contentsOf: holdings, at: 2)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vanguard-many-\(UUID().uuidString).csv").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = try SourceInput(path: path)
        guard case .detected(let reader) = FormatRegistry.builtIn.detect(input.probe) else {
            Issue.record("not recognized: \(FormatRegistry.builtIn.detect(input.probe))")
            return
        }
        #expect(reader.id == "vanguard")
    }
}
