import Foundation
import TradeportCore
import TradeportTestKit

/// Runs the built `tradeport` executable, as a user would.
enum CLI {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

    /// The executable SwiftPM built beside this test bundle.
    static let executable: String = {
        var candidates: [String] = []
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(argv0.deletingLastPathComponent().appendingPathComponent("tradeport").path)
        candidates.append(URL(fileURLWithPath: Bundle.main.bundlePath).deletingLastPathComponent().appendingPathComponent("tradeport").path)
        candidates.append(repositoryRoot + "/.build/debug/tradeport")
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
    }

    /// Runs `tradeport arguments…` in `directory`, feeding `input` to standard input.
    @discardableResult
    static func run(
        _ arguments: [String], in directory: String = repositoryRoot, input: Data? = nil,
        environment: [String: String] = [:], timeout: TimeInterval = 120
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe()
        let inPipe = Pipe()
        // Standard error goes to a file, so that neither stream can block the child.
        let errPath = NSTemporaryDirectory() + "tradeport-stderr-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let errFile = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        process.standardOutput = out
        process.standardError = errFile
        process.standardInput = inPipe
        try process.run()
        try errFile.close()
        // A child that stops reading early must not kill this process with SIGPIPE; the input is
        // written from another thread so that neither side can block the other.
        signal(SIGPIPE, SIG_IGN)
        let writer = inPipe.fileHandleForWriting
        let fed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            if let input { try? writer.write(contentsOf: input) }
            try? writer.close()
            fed.signal()
        }
        // A hang is a failure, not a stuck test run: the child is killed after `timeout`.
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        fed.wait()
        let stderrData = try Data(contentsOf: URL(fileURLWithPath: errPath))
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self), stdoutData: stdoutData)
    }

    static func decode(_ data: Data) throws -> CanonicalDocument {
        try JSONDecoder().decode(CanonicalDocument.self, from: data)
    }

    static func decode(file path: String) throws -> CanonicalDocument {
        try decode(Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Whether Python with `jsonschema` is there to check output against the published schema.
    static let canValidateSchema: Bool = {
        (try? shell("python3", ["-c", "import jsonschema"]))?.status == 0
    }()

    /// Validates a document (or JSON Lines) against schema/tradeport.schema.json.
    static func validateSchema(_ path: String, jsonl: Bool = false) throws -> (status: Int32, output: String) {
        let r = try shell(
            "python3", [repositoryRoot + "/schema/validate.py", repositoryRoot + "/schema/tradeport.schema.json", path] + (jsonl ? ["--jsonl"] : []))
        return (r.status, r.output)
    }

    static func shell(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Whether GNU time is there to measure a run's peak memory.
    static let canMeasureMemory = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")

    /// Runs `tradeport arguments…` under GNU time; the result and the run's peak resident memory in bytes.
    static func runMeasured(_ arguments: [String], timeout: TimeInterval = 120) throws -> (Result, Int) {
        let report = NSTemporaryDirectory() + "tradeport-time-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: report) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", report, executable] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        let kilobytes = Int((try? String(contentsOfFile: report, encoding: .utf8))?.split(separator: "\n").last ?? "") ?? Int.max
        let result = Result(status: process.terminationStatus, stdout: "", stderr: String(decoding: stderrData, as: UTF8.self), stdoutData: Data())
        return (result, kilobytes == Int.max ? Int.max : kilobytes * 1024)
    }

    static func temporaryDirectory() throws -> String {
        try TestKit.makeTemporaryDirectory(prefix: "e2e")
    }

    static func entries(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }
}
