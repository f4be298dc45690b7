import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Plain loopback sockets for the test's own servers (`FreezingProxy`, `GhostfolioStandIn`).
enum Loopback {
    struct Failure: Error { let message: String }

    /// 127.0.0.1 at `port`.
    static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A socket listening on 127.0.0.1 on a free port, and that port.
    static func listen() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(message: "socket: \(errno)") }
        var address = address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 16) == 0 else {
            close(fd)
            throw Failure(message: "bind or listen: \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Sends the first `count` bytes of `bytes` whole (without SIGPIPE); false when the peer is gone.
    static func send(_ bytes: [UInt8], count: Int? = nil, to fd: Int32) -> Bool {
        let count = count ?? bytes.count
        var offset = 0
        while offset < count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}
