import Foundation
import Hummingbird
import HummingbirdBcrypt
import TradeportBalances
import TradeportCore
import TradeportPrimitives

/// The routes of trades and transactions, which share their shape: list, get, post, delete, a DSX
/// export's upload and (not in the original) batches.
extension BalancesAPI {
    /// The routes of trades or transactions: they share their shape and differ in their records.
    func registerOperations<R: StoredRecord>(on api: RouterGroup<BasicRequestContext>, _: R.Type) {
        let resource = R.resource
        api.get(RouterPath(resource)) { request, _ in
            await respond(request) {
                let portfolio = try await requestPortfolio(request)
                var w = JSONWriter(capacity: 1 << 16)
                w.beginArray()
                if request.uri.queryParameters["fields"].map(String.init) == R.valueIdKey {
                    // A sparse answer (`fields=tradeValueId`): what push reads to know what is held.
                    for valueId in try await store.valueIds(R.self, portfolio: portfolio) {
                        w.beginObject()
                        w.key(R.valueIdKey)
                        w.string(valueId)
                        w.endObject()
                    }
                } else {
                    for record in try await store.records(R.self, portfolio: portfolio) { record.write(to: &w, secondsAlways: false) }
                }
                w.endArray()
                return jsonResponse(.ok, w.bytes)
            }
        }
        api.get(RouterPath("\(resource)/{id}")) { request, context in
            await respond(request) {
                let portfolio = try await requestPortfolio(request)
                let id = try pathId(context)
                guard let record = try await store.record(R.self, id: id, portfolio: portfolio) else { throw APIError.notFound("\(R.noun) \(id) not found") }
                return recordResponse(record, .ok)
            }
        }
        api.post(RouterPath(resource)) { request, _ in
            await respond(request) {
                let portfolio = try await requestPortfolio(request)
                let record: R
                do {
                    record = try R(json: try await json(request))
                } catch let e as RecordError {
                    throw APIError.badRequest(e.description)
                }
                let (stored, created) = try await store.add([record], portfolio: portfolio, deduplicate: !compatOriginal)[0]
                guard created else {
                    var w = JSONWriter()
                    stored.write(to: &w, secondsAlways: false)
                    throw APIError(status: .conflict, message: "already held", body: w.bytes)
                }
                return recordResponse(stored, .ok)
            }
        }
        api.delete(RouterPath("\(resource)/{id}")) { request, context in
            await respond(request) {
                let portfolio = try await requestPortfolio(request)
                let id = try pathId(context)
                guard try await store.delete(R.self, id: id, portfolio: portfolio) else { throw APIError.notFound("\(R.noun) \(id) not found") }
                return Response(status: .ok)
            }
        }
        // The original's upload of a DSX export (multipart part `file`), read by tradeport's
        // readers; with the uniqueness rule a re-upload stores nothing twice.
        api.post(RouterPath("\(resource)/uploadFile")) { request, _ in
            await respond(request) {
                let portfolio = try await requestPortfolio(request)
                let format = request.uri.queryParameters["csvFileFormat"].map(String.init) ?? "Dsx"
                guard format.lowercased() == "dsx" else { throw APIError.badRequest("csvFileFormat: only Dsx is read, not '\(format)'") }
                guard let contentType = request.headers[.contentType] else {
                    throw APIError.badRequest("expected a multipart/form-data body with a part named 'file'")
                }
                let file: UploadForm.File
                do {
                    guard let found = try UploadForm.file(contentType: contentType, body: try await bytes(request)) else {
                        throw APIError.badRequest("expected a multipart/form-data body with a part named 'file'")
                    }
                    file = found
                } catch let e as UploadForm.Malformed {
                    throw APIError.badRequest("malformed multipart body: \(e.description)")
                }
                let export: UploadedExport
                do {
                    export = try await offload { try UploadedExport(bytes: file.bytes, resource: resource, filename: file.filename) }
                } catch {
                    throw APIError.badRequest("the file cannot be read as a DSX \(resource) export: \(error)")
                }
                let answers = try await store.add(R.records(of: export), portfolio: portfolio, deduplicate: !compatOriginal)
                var w = JSONWriter(capacity: 1 << 12)
                w.beginObject()
                writeCreatedAndExisting(answers, to: &w)
                w.key("problems")
                w.beginArray()
                for p in export.problems { w.string(p) }
                w.endArray()
                w.endObject()
                return jsonResponse(.ok, w.bytes)
            }
        }
        guard !compatOriginal else { return }
        api.post(RouterPath("\(resource)/batch")) { request, _ in
            await respond(request) {
                let portfolio = try await requestPortfolio(request)
                let body = try await bytes(request)
                // Straight from the bytes when the batch is plain (what push sends); else as a
                // tree, which also names what is wrong.
                let records = try R.records(inBatch: body) ?? batchRecords(body, R.self)
                guard records.count <= Self.batchLimit else {
                    throw APIError(status: .contentTooLarge, message: "a batch holds at most \(Self.batchLimit) records, not \(records.count)")
                }
                let answers = try await store.add(records, portfolio: portfolio, deduplicate: true)
                if Self.prefersMinimal(request) {
                    // Only the counts (RFC 7240): a bulk load has no use for its records echoed back.
                    let created = answers.count { $0.created }
                    var w = JSONWriter()
                    w.beginObject()
                    w.key("created")
                    w.number(Int64(created))
                    w.key("existing")
                    w.number(Int64(answers.count - created))
                    w.endObject()
                    var response = jsonResponse(.ok, w.bytes)
                    response.headers[Self.preferenceApplied] = "return=minimal"
                    return response
                }
                var w = JSONWriter(capacity: 1 << 16)
                w.beginObject()
                writeCreatedAndExisting(answers, to: &w)
                w.endObject()
                return jsonResponse(.ok, w.bytes)
            }
        }
    }

    /// `"created": […], "existing": […]` of a batch or an upload.
    func writeCreatedAndExisting<R: StoredRecord>(_ answers: [(R, created: Bool)], to w: inout JSONWriter) {
        w.key("created")
        w.beginArray()
        for (r, created) in answers where created { r.write(to: &w, secondsAlways: false) }
        w.endArray()
        w.key("existing")
        w.beginArray()
        for (r, created) in answers where !created { r.write(to: &w, secondsAlways: false) }
        w.endArray()
    }

    func recordResponse(_ record: some StoredRecord, _ status: HTTPResponse.Status) -> Response {
        var w = JSONWriter()
        record.write(to: &w, secondsAlways: false)
        return jsonResponse(status, w.bytes)
    }
}
