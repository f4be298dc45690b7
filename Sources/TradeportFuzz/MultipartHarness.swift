import TradeportBalances
import TradeportCore
import TradeportFormats
import TradeportServe

/// `multipart`: the server's upload form reader, and what the server does with the file.
///
/// The first line of the input (up to `\n`, at most 200 bytes, a trailing `\r` dropped) is the
/// Content-Type header's value; when it does not start with `multipart`,
/// `multipart/form-data; boundary=X` is used instead. The rest is the body. Reading it twice gives
/// the same answer; a file found is bytes of the body as they stand there. One file in eight (by a
/// checksum of its bytes: a conversion is slow under the address sanitizer) is then read as the DSX
/// export the upload endpoint takes (transactions when its filename says so, else trades) and mapped
/// to the server's records, which must write and read back equal.
enum MultipartHarness {
    static let fallbackContentType = "multipart/form-data; boundary=X"
    static let registry = FormatRegistry.builtIn

    enum Outcome: Equatable {
        case file(filename: String?, bytes: [UInt8])
        case noFile
        case malformed(String)
    }

    static func run(_ input: UnsafeRawBufferPointer) {
        let bytes = [UInt8](input)
        let line: ArraySlice<UInt8>
        let body: [UInt8]
        if let newline = bytes.prefix(201).firstIndex(of: 0x0A) {
            line = bytes[..<newline]
            body = Array(bytes[(newline + 1)...])
        } else {
            line = bytes.prefix(200)
            body = Array(bytes.dropFirst(200))
        }
        var header = String(decoding: line, as: UTF8.self)
        if header.hasSuffix("\r") { header.removeLast() }
        let contentType = header.lowercased().hasPrefix("multipart") ? header : fallbackContentType

        let outcome = parse(contentType, body)
        let again = parse(contentType, body)
        precondition(outcome == again, "the same body read twice gave \(outcome) and \(again)")
        guard case .file(let filename, let content) = outcome else { return }
        precondition(content.count <= body.count, "a file of \(content.count) bytes in a body of \(body.count)")
        if !content.isEmpty {
            precondition(body.firstRange(of: content) != nil, "the file's bytes are not bytes of the body")
        }
        if let filename { precondition(!filename.isEmpty, "an empty filename, not nil") }
        if content.withUnsafeBytes({ checksum($0) }) % 8 == 0 {
            readUpload(content, transactions: filename?.lowercased().contains("transaction") == true)
        }
    }

    static func parse(_ contentType: String, _ body: [UInt8]) -> Outcome {
        do {
            guard let file = try UploadForm.file(contentType: contentType, body: body) else { return .noFile }
            return .file(filename: file.filename, bytes: file.bytes)
        } catch {
            precondition(!error.description.isEmpty, "a Malformed without a description")
            return .malformed(error.description)
        }
    }

    /// The upload endpoint's reading: the file as a DSX export, its operations as the server's records.
    static func readUpload(_ content: [UInt8], transactions: Bool) {
        let id = transactions ? "dsx-transactions" : "dsx-trades"
        guard let reader = registry.reader(id: id) else { preconditionFailure("no built-in format \(id)") }
        let input = SourceInput(bytes: content, name: "upload.csv")
        do {
            let (document, _) = try Inputs.document(
                [PreparedInput(input: input, reader: reader)],
                options: ConversionOptions(portfolio: "upload"))
            for portfolio in document.portfolios {
                let records = BalancesMapping.records(of: portfolio)
                for trade in records.trades { BalancesJSONHarness.roundTrip(trade) }
                for transaction in records.transactions { BalancesJSONHarness.roundTrip(transaction) }
                blackHole(records.refusals.count)
            }
        } catch {
            blackHole("\(error)".utf8.count)
        }
    }
}
