import Foundation
import TradeportCore

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
    static func run(_ arguments: [String], in directory: String = repositoryRoot, input: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe(), inPipe = Pipe()
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
        if let input { inPipe.fileHandleForWriting.write(input) }
        try inPipe.fileHandleForWriting.close()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
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
        let r = try shell("python3", [repositoryRoot + "/schema/validate.py", repositoryRoot + "/schema/tradeport.schema.json", path] + (jsonl ? ["--jsonl"] : []))
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

    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "tradeport-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func entries(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }
}
