import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP proxy in front of a test server. It forwards both ways until a client begins
/// its `n`-th post to a resource (`POST /bcv/trades…`); from then on nothing a client sends is
/// forwarded, while the server's answers still are. A test can so stop a
/// push at a known point whatever the machine's speed (waiting for a count while the push runs
/// freely, a fast machine finished the push first).
final class FreezingProxy: @unchecked Sendable {
    let port: Int
    /// The server's base URL, through the proxy.
    let base: String
    private let target: Int
    private let marker: [UInt8]
    private let freezeAt: Int
    private let listener: Int32
    private let lock = NSLock()
    // Under `lock`.
    private var seen = 0
    private var isFrozen = false
    private var answered = 0
    private var connections: [Int32: Int] = [:]
    private var stopped = false

    init(for server: ServerProcess, freezingAtPost n: Int, to resource: String) throws {
        let path = URLComponents(string: server.base)?.path ?? ""
        target = server.port
        freezeAt = n
        marker = Array("POST \(path)/\(resource)".utf8)
        let (fd, port) = try Loopback.listen()
        self.port = port
        base = "http://127.0.0.1:\(port)\(path)"
        listener = fd
        Thread { [self] in acceptLoop() }.start()
    }

    /// Whether the client's requests are no longer forwarded.
    var frozen: Bool { lock.withLock { isFrozen } }
    /// The bytes of answers forwarded to clients so far.
    var bytesAnswered: Int { lock.withLock { answered } }

    /// Closes every connection and stops listening: a client's next connection is refused.
    func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            for fd in connections.keys { shutdown(fd, Int32(SHUT_RDWR)) }
            shutdown(listener, Int32(SHUT_RDWR))
        }
    }

    deinit { close(listener) }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Loopback.address(port: UInt16(target))
            let connected =
                server >= 0
                && withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                } == 0
            let kept: Bool = lock.withLock {
                guard connected, !stopped else { return false }
                connections[client] = 2
                connections[server] = 2
                return true
            }
            guard kept else {
                close(client)
                if server >= 0 { close(server) }
                continue
            }
            Thread { [self] in pump(from: client, to: server, requests: true) }.start()
            Thread { [self] in pump(from: server, to: client, requests: false) }.start()
        }
    }

    /// Copies one direction of a connection until its end; the two sockets are closed once both
    /// directions have ended.
    private func pump(from source: Int32, to sink: Int32, requests: Bool) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var tail: [UInt8] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            let forward =
                requests
                ? admitted(buffer[0..<n], tail: &tail)
                : lock.withLock {
                    answered += n
                    return n
                }
            if forward > 0 && !send(buffer, count: forward, to: sink) { break }
        }
        shutdown(sink, Int32(SHUT_WR))
        lock.withLock {
            for fd in [source, sink] {
                connections[fd, default: 1] -= 1
                if connections[fd] == 0 {
                    connections[fd] = nil
                    close(fd)
                }
            }
        }
    }

    /// How many of a client's bytes `chunk` may be forwarded: all of them, or those before the
    /// request that freezes the proxy (none once it is frozen).
    private func admitted(_ chunk: ArraySlice<UInt8>, tail: inout [UInt8]) -> Int {
        lock.withLock {
            guard !isFrozen else { return 0 }
            let text = tail + chunk
            var i = 0
            while i + marker.count <= text.count {
                if text[i] == marker[0] && text[i..<(i + marker.count)].elementsEqual(marker) {
                    seen += 1
                    if seen == freezeAt {
                        isFrozen = true
                        return max(0, i - tail.count)
                    }
                    i += marker.count
                } else {
                    i += 1
                }
            }
            tail = Array(text.suffix(marker.count - 1))
            return chunk.count
        }
    }

    private func send(_ buffer: [UInt8], count: Int, to fd: Int32) -> Bool { Loopback.send(buffer, count: count, to: fd) }
}
