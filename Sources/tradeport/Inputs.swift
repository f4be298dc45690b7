import TradeportCore
import TradeportFormats

/// Opening inputs and choosing their adapters, shared by the subcommands.
enum Inputs {
    /// Opens `path`, failing with a clear message for a missing file, a directory or an empty file.
    static func open(_ path: String) throws -> SourceInput {
        let input: SourceInput
        do {
            input = try SourceInput(path: path)
        } catch let error as InputError {
            throw CommandFailure(message: "cannot read \(error)")
        }
        if input.isEmpty { throw CommandFailure(message: "\(path): the file is empty; there is nothing to convert") }
        return input
    }

    /// The read options for `--timezone`: the zone named, or each format's own default.
    static func readOptions(timezone: String?) throws -> ReadOptions {
        var read = ReadOptions()
        if let timezone {
            guard let zone = SourceTimeZone(identifier: timezone) else {
                throw CommandFailure(message: "unknown time zone '\(timezone)' (use an IANA name like Europe/Moscow or UTC)")
            }
            read.timeZone = zone
        }
        return read
    }

    /// The adapter named `id`, or a failure listing the known ones.
    static func named(_ id: String, in registry: FormatRegistry) throws -> any FormatAdapter {
        guard let adapter = registry.adapter(id: id) else {
            throw CommandFailure(message: "unknown format '\(id)'; known formats: \(registry.ids.joined(separator: ", "))")
        }
        return adapter
    }

    /// The adapter for `input`: the one named, or the one detection finds.
    static func adapter(for input: SourceInput, named id: String?, registry: FormatRegistry) throws -> any FormatAdapter {
        if let id { return try named(id, in: registry) }
        switch registry.detect(input.probe) {
        case .detected(let adapter):
            return adapter
        case .none(let reasons):
            let considered = reasons.map { "  \($0.id): \($0.reason)" }.joined(separator: "\n")
            throw CommandFailure(message: "\(input.path): no format recognized; considered:\n\(considered)\nname one with --format")
        case .ambiguous(let ids):
            throw CommandFailure(message: "\(input.path): more than one format matches (\(ids.joined(separator: ", "))); name one with --format")
        }
    }
}
