import Foundation
import Testing
import TradeportCore
import TradeportServe

#if canImport(Glibc)
import Glibc
#endif

/// The defects a robustness campaign found, each as its reproduction.
@Suite("Hardening: what an attacker or a careless user found")
struct HardeningTests {
    static let example = CLI.repositoryRoot + "/formats/samples/dsx-trades-example.csv"

    /// What the fuzzers found stays found: every input under fuzz/regressions/TARGET (and the
    /// seeds) replayed through its harness by the normally built TradeportFuzz.
    @Test("the fuzzers' findings and seeds replay through their harnesses")
    func fuzzRegressions() throws {
        let replay = URL(fileURLWithPath: CLI.executable).deletingLastPathComponent().appendingPathComponent("TradeportFuzz").path
        guard FileManager.default.isExecutableFile(atPath: replay) else { return }
        for kind in ["regressions", "seeds"] {
            let root = CLI.repositoryRoot + "/fuzz/" + kind
            for target in CLI.entries(root) where target != "sheet-parser" {
                let r = try CLI.shell(replay, [target, root + "/" + target])
                #expect(r.status == 0 && r.output.hasPrefix("ok "), "\(kind)/\(target): \(r.output)")
            }
        }
    }

    @Test("an upload may hold any byte in its content and header values; a header name past ASCII is refused, not a crash")
    func uploadBytesPastASCII() throws {
        let content = Array("Дата;Сделка\r\n2021-03-01;покупка\r\n".utf8) + [0xFF, 0x80, 0x0D, 0x0A]
        func body(_ name: [UInt8] = Array("Content-Disposition".utf8), filename: String = "сделки.csv") -> [UInt8] {
            Array("preamble\r\n--BOUNDARY\r\n".utf8) + name
                + Array(": form-data; name=\"file\"; filename=\"\(filename)\"\r\nContent-Type: text/csv\r\n\r\n".utf8)
                + content + Array("\r\n--BOUNDARY--\r\n".utf8)
        }
        let type = "multipart/form-data; boundary=BOUNDARY"
        let file = try UploadForm.file(contentType: type, body: body())
        #expect(file?.bytes == content)
        #expect(file?.filename == "сделки.csv")

        var badName = Array("Content-Disposition".utf8)
        badName.insert(0xC3, at: 3)
        #expect(throws: UploadForm.Malformed.self) { try UploadForm.file(contentType: type, body: body(badName)) }
        do {
            _ = try UploadForm.file(contentType: type, body: body(badName))
        } catch {
            #expect(error.description.contains("header name holds a byte that is not ASCII (0xC3 at byte 25)"), "\(error)")
        }
        // The bodies the fuzzer found taking serve down: refused.
        for name in ["multipart-nonascii-header", "name-across-lines", "header-name-high-bytes"] {
            let input = try [UInt8](Data(contentsOf: URL(fileURLWithPath: CLI.repositoryRoot + "/fuzz/regressions/multipart/" + name)))
            let newline = input.firstIndex(of: 0x0A)!
            // MultipartHarness's layout: the first line is the Content-Type (its CR dropped), and one
            // that does not start with `multipart` in any case means its fallback, boundary X.
            var header = String(decoding: input[..<newline], as: UTF8.self)
            if header.hasSuffix("\r") { header.removeLast() }
            let contentType = header.lowercased().hasPrefix("multipart") ? header : "multipart/form-data; boundary=X"
            #expect(throws: UploadForm.Malformed.self) { try UploadForm.file(contentType: contentType, body: Array(input[(newline + 1)...])) }
        }
    }

    @Test("a named pipe as input is refused at once with exit 2; a stream the shell opened is read")
    func namedPipe() throws {
        let dir = try CLI.temporaryDirectory()
        let fifo = dir + "/f.csv"
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        let r = try CLI.run(["convert", fifo, "-o", dir + "/out.json"], timeout: 20)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(r.status == 2 && r.stderr.contains("is not a regular file (a named pipe)"), "\(r.stderr)")
        #expect(CLI.entries(dir) == ["f.csv"])
        // /dev/stdin is a descriptor this run was given: read as the stream it is.
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.example))
        let piped = try CLI.run(["convert", "--format", "dsx-trades", "--jsonl", "/dev/stdin"], input: data)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.split(separator: "\n").filter { $0.hasPrefix(#"{"kind":"trade""#) }.count == 6)
        let device = try CLI.run(["convert", "/dev/zero"], timeout: 20)
        #expect(device.status == 2 && device.stderr.contains("a character device"), "\(device.stderr)")
    }

    @Test("a manifest of more inputs than the soft limit of open files is pushed: the limit is raised to the hard one")
    func manyInputsPastTheSoftFileLimit() throws {
        let dir = try CLI.temporaryDirectory()
        let example = try Data(contentsOf: URL(fileURLWithPath: Self.example))
        let count = 80
        var entries: [String] = []
        for i in 1...count {
            try example.write(to: URL(fileURLWithPath: dir + "/t\(i).csv"))
            entries.append(#"{"name": "P\#(i)", "inputs": ["t\#(i).csv"]}"#)
        }
        try Data(#"{"portfolios": [\#(entries.joined(separator: ", "))]}"#.utf8).write(to: URL(fileURLWithPath: dir + "/m.json"))
        // Every input is opened before anything is sent; 40 descriptors would not hold 80.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"ulimit -Sn 40 && exec "$0" push --dry-run --manifest m.json > out.jsonl 2> err.txt"#, CLI.executable]
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        try process.run()
        process.waitUntilExit()
        let stderr = (try? String(contentsOfFile: dir + "/err.txt", encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "\(stderr)")
        let lines = try String(contentsOfFile: dir + "/out.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 6 * count, "\(stderr)")
        #expect(stderr.contains("P\(count): would send 6 trades"), "\(stderr)")
    }

    @Test("malformed JSON given to push names its line and column: a manifest, an operation in a document")
    func jsonErrorsArePlaced() throws {
        let dir = try CLI.temporaryDirectory()
        try Data(#"{"portfolios": [{"name": "a",\#n  "inputs": [{"path": x.csv"}]}]}"#.utf8).write(to: URL(fileURLWithPath: dir + "/m.json"))
        try Data(#"{"portfolios": [{"name": "a", "inputs": [{"path": "x.csv"}]},]}"#.utf8).write(to: URL(fileURLWithPath: dir + "/trailing.json"))
        let environment = ["TRADEPORT_USERNAME": "u", "TRADEPORT_PASSWORD": "p"]
        let m = try CLI.run(["push", "--manifest", "m.json", "--server", "http://127.0.0.1:1/bcv"], in: dir, environment: environment)
        #expect(m.status == 2 && m.stderr.contains("m.json: not a valid manifest: malformed JSON at line 2, column 23 (byte 52)"), "\(m.stderr)")
        let trailing = try CLI.run(["push", "--manifest", "trailing.json", "--server", "http://127.0.0.1:1/bcv"], in: dir, environment: environment)
        #expect(trailing.status == 2 && trailing.stderr.contains("line 1, column 62"), "\(trailing.stderr)")
        // An operation of a canonical document that is not JSON: rejected at its place in the file.
        let converted = try CLI.run(["convert", Self.example, "-o", dir + "/good.json"])
        #expect(converted.status == 0)
        let text = try String(contentsOfFile: dir + "/good.json", encoding: .utf8)
        try text.replacingOccurrences(of: #""side":"sell""#, with: #""side":"sell" "x""#)
            .write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let lineIndex = try #require(lines.firstIndex { $0.contains(#""side":"sell""#) })
        let line = String(lines[lineIndex])
        let start = try #require(line.range(of: #""side":"sell""#)).lowerBound
        let column = line.utf8.distance(from: line.startIndex, to: start) + #""side":"sell" "#.utf8.count + 1
        let r = try CLI.run(["convert", dir + "/bad.json", "-o", dir + "/out.json"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("malformed JSON at line \(lineIndex + 1), column \(column): expected ',' or '}' in an object"), "\(r.stderr)")
    }

    @Test("a CSV line past the limit is a located reject of bounded size, and memory stays bounded")
    func longLine() throws {
        let dir = try CLI.temporaryDirectory()
        let lines = try String(contentsOfFile: Self.example, encoding: .utf8).split(separator: "\n")
        var data = Data((lines[0...1].joined(separator: "\n") + "\n").utf8)
        data.append(Data(repeating: UInt8(ascii: "x"), count: 24 << 20))
        data.append(Data(("\n" + lines[2...].joined(separator: "\n") + "\n").utf8))
        try data.write(to: URL(fileURLWithPath: dir + "/long.csv"))
        var quote = Data((lines[0] + "\n\"").utf8)
        quote.append(Data(repeating: UInt8(ascii: "y"), count: 24 << 20))
        try quote.write(to: URL(fileURLWithPath: dir + "/unclosed.csv"))
        for (name, row) in [("long.csv", 3), ("unclosed.csv", 2)] {
            let arguments = ["convert", "--format", "dsx-trades", dir + "/" + name, "-o", dir + "/\(name).json"]
            let (r, peak) = CLI.canMeasureMemory ? try CLI.runMeasured(arguments) : (try CLI.run(arguments), 0)
            #expect(r.status == 1, "\(r.stderr)")
            #expect(peak < 120 << 20, "\(name): peak \(peak >> 20) MB")
            let doc = try CLI.decode(file: dir + "/\(name).json")
            let reject = try #require(doc.rejected.first)
            #expect(reject.source.row == row)
            #expect(reject.errors.map(\.message) == ["the record is longer than 4 MiB, the most a record may hold; it is not read"])
            #expect(reject.raw.utf8.count <= 4096)
            #expect(doc.allTrades.count == (name == "long.csv" ? 6 : 1))
            let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/\(name).json")
            #expect((attributes[.size] as? Int ?? .max) < 64 << 10)
        }
    }

    /// `-o /dev/null` (or a named pipe) is written in place: the atomic rename replaced the
    /// device itself with a regular file when run as root (found while attacking defect 4).
    @Test("an output that is a device or a pipe is written in place, not replaced")
    func deviceOutput() throws {
        var before = stat()
        #expect(stat("/dev/null", &before) == 0)
        let r = try CLI.run(["convert", Self.example, "-o", "/dev/null"])
        #expect(r.status == 0, "\(r.stderr)")
        var after = stat()
        #expect(stat("/dev/null", &after) == 0)
        #expect(after.st_mode & S_IFMT == S_IFCHR && after.st_rdev == before.st_rdev)
        // So does `formats new -o` (its first version renamed a draft over /dev/null).
        let draft = try CLI.run(["formats", "new", Self.example, "-o", "/dev/null"])
        #expect(draft.status == 0, "\(draft.stderr)")
        #expect(stat("/dev/null", &after) == 0)
        #expect(after.st_mode & S_IFMT == S_IFCHR && after.st_rdev == before.st_rdev)
        let dir = try CLI.temporaryDirectory()
        let fifo = dir + "/out.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let pipe = Pipe()
        reader.standardOutput = pipe
        try reader.run()
        let w = try CLI.run(["convert", Self.example, "--jsonl", "-o", fifo], timeout: 30)
        // Should the run never have opened the pipe, release the reader waiting on it.
        let release = open(fifo, O_WRONLY | O_NONBLOCK)
        if release >= 0 { close(release) }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        #expect(w.status == 0, "\(w.stderr)")
        #expect(text.split(separator: "\n").filter { $0.hasPrefix(#"{"kind":"trade""#) }.count == 6)
        var st = stat()
        #expect(stat(fifo, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("a temporary file left by a killed run is removed by the next run over the same target; a live one is kept")
    func staleTemporaryFiles() throws {
        let dir = try CLI.temporaryDirectory()
        // A process that is gone: a child that has exited and been reaped.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = dir + "/.out.json.tradeport-\(gone.processIdentifier)-AbC123"
        let alive = dir + "/.out.json.tradeport-\(getpid())-XyZ789"
        let otherTarget = dir + "/.other.json.tradeport-\(gone.processIdentifier)-QwE456"
        for path in [dead, alive, otherTarget] { #expect(FileManager.default.createFile(atPath: path, contents: Data("partial".utf8))) }
        let r = try CLI.run(["convert", Self.example, "-o", dir + "/out.json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.entries(dir) == [".other.json.tradeport-\(gone.processIdentifier)-QwE456", ".out.json.tradeport-\(getpid())-XyZ789", "out.json"])
    }
}
