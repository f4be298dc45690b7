import Hummingbird
import TradeportBalances

/// A refusal with its status and a message, answered as a Spring-like error body
/// (`{"status": 404, "error": "Not Found", "message": "…", "path": "/bcv/…"}`): Hummingbird's
/// `HTTPResponseError`, which `BalancesAPI.respond` also answers itself (it races the database's
/// health).
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    let message: String
    /// A record to answer with instead of an error body (a duplicate's existing record).
    var body: [UInt8]? = nil

    static func badRequest(_ message: String) -> APIError { APIError(status: .badRequest, message: message) }
    static func unauthorized(_ message: String) -> APIError { APIError(status: .unauthorized, message: message) }
    static func notFound(_ message: String) -> APIError { APIError(status: .notFound, message: message) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        response(path: request.uri.path)
    }

    func response(path: String) -> Response {
        if let body { return jsonResponse(status, body) }
        var w = JSONWriter()
        w.beginObject()
        w.key("status")
        w.number(Int64(status.code))
        w.key("error")
        w.string(status.reasonPhrase)
        w.key("message")
        w.string(message)
        w.key("path")
        w.string(path)
        w.endObject()
        return jsonResponse(status, w.bytes)
    }
}

func jsonResponse(_ status: HTTPResponse.Status, _ bytes: [UInt8]) -> Response {
    Response(
        status: status, headers: [.contentType: "application/json"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
}
