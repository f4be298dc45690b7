// Fuzzing harnesses for tradeport's readers, one executable for all of them (see fuzz/README.md).
//
// Built with `-DFUZZING` and the fuzzer sanitizer (fuzz/run.sh does it), it is a libFuzzer binary
// running the harness that TRADEPORT_FUZZ_TARGET names. Built normally, it replays inputs:
//
//     TradeportFuzz TARGET FILE_OR_DIR...
//
// runs each file (a directory: every file in it, sorted) through the harness and prints
// `ok N inputs`; a harness that finds a broken invariant traps, which ends the process.
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The Swift harnesses, by the names fuzz/run.sh uses (`sheet-parser` is the C harness in fuzz/).
enum Harness: String, CaseIterable, Sendable {
    case csv
    case workbook
    case spec
    case numbers
    case balancesJSON = "balances-json"
    case multipart
    case prepared

    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// Runs one input. Thrown errors are normal outcomes inside each harness; a broken invariant
    /// is a `precondition` failure (a trap), which is what the fuzzer reports.
    func run(_ input: UnsafeRawBufferPointer) {
        _ = Scratch.directory
        switch self {
        case .csv: CSVHarness.run(input)
        case .workbook: WorkbookHarness.run(input)
        case .spec: SpecHarness.run(input)
        case .numbers: NumbersHarness.run(input)
        case .balancesJSON: BalancesJSONHarness.run(input)
        case .multipart: MultipartHarness.run(input)
        case .prepared: PreparedHarness.run(input)
        }
    }
}

/// Keeps a computed value alive, so that reading every byte of a cell or a field is not optimized
/// away (the reads are what the address sanitizer checks).
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

/// A checksum of `bytes`, read one by one.
@inline(__always)
func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var acc: UInt32 = 0
    for b in bytes { acc = acc &* 31 &+ UInt32(b) }
    return acc
}

/// The process's scratch directory: `/dev/shm` when there is one (memory, not disk), else `/tmp`,
/// one per process, removed at exit. Made the TMPDIR of the process, so that the readers' own
/// scratch files go there too.
enum Scratch {
    static let directory: String = {
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        let dir = "\(base)/tradeport-fuzz-\(getpid())"
        if mkdir(dir, 0o700) != 0 && errno != EEXIST {
            fatalError("cannot create the scratch directory \(dir): errno \(errno)")
        }
        setenv("TMPDIR", dir, 1)
        atexit {
            Scratch.removeAll()
        }
        return dir
    }()

    /// The files harnesses write: each a fixed name in the directory, rewritten for every input.
    static let names = ["input.xlsx", "built.xlsx", "prepared.out"]

    static func path(_ name: String) -> String { directory + "/" + name }

    /// Writes `bytes` to the scratch file `name`; false when it cannot (the input is then skipped).
    static func store(_ bytes: [UInt8], as name: String) -> Bool {
        let fd = open(path(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }

    /// Removes the directory and the files of it this process wrote (computed again from the pid:
    /// this runs from `atexit`).
    static func removeAll() {
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        let dir = "\(base)/tradeport-fuzz-\(getpid())"
        for name in names { unlink(dir + "/" + name) }
        rmdir(dir)
    }
}

#if FUZZING

extension Harness {
    /// The harness TRADEPORT_FUZZ_TARGET names, read once.
    static let selected: Harness = {
        let name = getenv("TRADEPORT_FUZZ_TARGET").map { String(cString: $0) } ?? ""
        guard let harness = Harness(rawValue: name) else {
            fatalError("TRADEPORT_FUZZ_TARGET is '\(name)'; set it to one of: \(Harness.names)")
        }
        return harness
    }()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Harness.selected.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

// SwiftPM links an executable target with `--defsym main=TradeportFuzz_main` (the entry point of
// a testable executable, renamed). Built with -DFUZZING this module has no entry point of its own,
// so the symbol is defined here, and it starts libFuzzer's driver as libFuzzer's own `main` would.
// (Linked without that renaming, libFuzzer's `main` runs instead and this is unused.)
@_silgen_name("LLVMFuzzerRunDriver")
func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("TradeportFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return llvmFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) }
}

#else

@main
struct Replay {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3, let harness = Harness(rawValue: arguments[1]) else {
            fail("usage: TradeportFuzz TARGET FILE_OR_DIR...\n  TARGET: \(Harness.names)", status: 2)
        }
        var count = 0
        for argument in arguments[2...] {
            for file in inputFiles(argument) {
                guard let data = FileManager.default.contents(atPath: file) else { fail("cannot read \(file)", status: 1) }
                let bytes = [UInt8](data)
                bytes.withUnsafeBytes { harness.run($0) }
                count += 1
            }
        }
        print("ok \(count) inputs")
    }

    /// `path` itself, or the files in the directory `path`, sorted by name.
    static func inputFiles(_ path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { fail("no such file: \(path)", status: 1) }
        guard isDirectory.boolValue else { return [path] }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { fail("cannot list \(path)", status: 1) }
        return names.sorted().map { path + "/" + $0 }.filter { file in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(status)
    }
}

#endif
