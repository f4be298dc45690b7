import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// One JSON request and its whole answer: what both push targets' clients (`BalancesClient`,
/// `GhostfolioClient`) send through, written once. A connection error, and a 5xx answer but 501,
/// is a `ServerFailure` of kind `unreachable`, which `RetryPolicy` retries; a connection error is
/// said in plain words (`BalancesClient.plain`).
enum HTTPExchange {
    struct Reply {
        let status: Int
        let body: [UInt8]
        let headers: HTTPHeaders
    }

    /// Sends `method url` with `authorization` and `headers`, and `body` as JSON. `call` names the
    /// call in failures (`POST /trades/batch`); `message` says what a 5xx answer's body says.
    static func send(
        _ method: HTTPMethod, _ url: String, authorization: String?, headers: [(String, String)] = [], body: [UInt8]?, on http: HTTPClient,
        base: String, call: String, limit: Int, message: (Reply) -> String
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(NIOCore.ByteBuffer(bytes: body))
        }
        let reply: Reply
        do {
            let response = try await http.execute(request, timeout: .seconds(300))
            let buffer = try await response.body.collect(upTo: limit)
            reply = Reply(status: Int(response.status.code), body: Array(buffer.readableBytesView), headers: response.headers)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ServerFailure(kind: .unreachable, call: call, status: nil, message: BalancesClient.plain(error, base: base))
        }
        if reply.status < 500 || reply.status == 501 { return reply }
        throw ServerFailure(kind: .unreachable, call: call, status: reply.status, message: message(reply))
    }
}
