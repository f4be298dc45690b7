import Foundation

/// Whether some process holds a file open for writing: on Linux, what `/proc/PID/fd` and
/// `/proc/PID/fdinfo` say of every process this user may look into (a browser still
/// downloading, `cp` still copying, a script between two writes). A settled size and time are
/// a guess that a pause of the writer can fool; an open descriptor is not. Elsewhere, and for
/// writers whose descriptors cannot be seen (another user's, another machine's over a network
/// share), the answer is false and the settle time alone decides.
enum OpenForWriting {
    /// The paths among `paths` (absolute, symbolic links resolved) that a process has open for
    /// writing.
    static func among(_ paths: Set<String>) -> Set<String> {
        #if os(Linux)
        guard !paths.isEmpty, let processes = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var open = Set<String>()
        for pid in processes where pid.first?.isNumber == true {
            let fdDirectory = "/proc/\(pid)/fd"
            guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: fdDirectory) else { continue }
            for fd in descriptors {
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: fdDirectory + "/" + fd), paths.contains(target),
                    isWritable(pid: pid, fd: fd)
                else { continue }
                open.insert(target)
            }
        }
        return open
        #else
        return []
        #endif
    }

    /// Whether descriptor `fd` of `pid` was opened for writing (`flags:` in its fdinfo, octal:
    /// O_WRONLY is 1, O_RDWR is 2).
    private static func isWritable(pid: String, fd: String) -> Bool {
        guard let info = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8) else { return false }
        for line in info.split(separator: "\n") where line.hasPrefix("flags:") {
            guard let flags = Int(line.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8) else { return false }
            return flags & 0o3 != 0
        }
        return false
    }
}
