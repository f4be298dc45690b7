import Foundation
import TradeportCore

/// A bulk load for `tradeport push --manifest`: per server portfolio, the inputs it is made of.
///
/// JSON, because the project already reads and writes JSON everywhere (no parser to add), its
/// decoding errors name the exact path (`portfolios[2].inputs[0].format`), and it is what scripts
/// generating a manifest write most easily.
///
/// ```json
/// {"portfolios": [
///   {"name": "DSX Invest", "account": "Invest", "inputs": ["trades.csv", "transactions.csv"]},
///   {"name": "Examples", "inputs": [{"path": "other.csv", "format": "dsx-trades"}], "timezone": "UTC"}
/// ]}
/// ```
public struct PushManifest: Decodable, Sendable {
    public var portfolios: [Entry]

    public struct Entry: Decodable, Sendable {
        /// The portfolio's name on the server.
        public var name: String
        /// The exports (or canonical JSON documents, `.json`) its operations come from.
        public var inputs: [Input]
        /// Only the operations of this sub-account of the inputs (as `--split-accounts` names
        /// portfolios; for a canonical document, its portfolio of that name). Without it, all.
        public var account: String?
        /// The zone of the inputs' local times (an IANA name), as `--timezone`.
        public var timezone: String?
        /// Values of the inputs' formats' parameters, as `--param NAME=VALUE` (`{"account-currency": "USD"}`).
        public var parameters: [String: String]?
    }

    public struct Input: Decodable, Hashable, Sendable {
        public var path: String
        /// A format id (`tradeport formats`); detected when absent.
        public var format: String?

        public init(from decoder: any Decoder) throws {
            if let path = try? decoder.singleValueContainer().decode(String.self) {
                self.path = path
                return
            }
            let c = try decoder.container(keyedBy: CodingKeys.self)
            path = try c.decode(String.self, forKey: .path)
            format = try c.decodeIfPresent(String.self, forKey: .format)
        }

        private enum CodingKeys: String, CodingKey { case path, format }
    }

    /// Reads a manifest; relative input paths are taken from the manifest's directory.
    public static func read(_ path: String) throws(PushPlanError) -> PushManifest {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PushPlanError(.manifest, "cannot read the manifest \(path)")
        }
        var manifest: PushManifest
        // Read as JSON first by the project's own strict reader, for a located message (Foundation's
        // names no place, and takes trailing commas).
        do {
            _ = try JSONValue.parse(data)
        } catch {
            throw PushPlanError(.manifest, "not a valid manifest: malformed JSON at \(error.located(in: data))", path: path)
        }
        do {
            manifest = try JSONDecoder().decode(PushManifest.self, from: data)
        } catch let error as DecodingError {
            throw PushPlanError(.manifest, "not a valid manifest: \(describe(error))", path: path)
        } catch {
            throw PushPlanError(.manifest, "not a valid manifest: \(error)", path: path)
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        var names: Set<String> = []
        for i in manifest.portfolios.indices {
            let entry = manifest.portfolios[i]
            if entry.name.isEmpty { throw PushPlanError(.manifest, "portfolios[\(i)].name is empty", path: path) }
            if entry.inputs.isEmpty { throw PushPlanError(.manifest, "portfolios[\(i)] (\(entry.name)) has no inputs", path: path) }
            if !names.insert(entry.name).inserted {
                throw PushPlanError(.manifest, "the portfolio '\(entry.name)' is named twice", path: path)
            }
            for j in entry.inputs.indices {
                let given = entry.inputs[j].path
                let url = given.hasPrefix("/") ? URL(fileURLWithPath: given) : directory.appendingPathComponent(given)
                manifest.portfolios[i].inputs[j].path = url.standardized.path
            }
        }
        if manifest.portfolios.isEmpty { throw PushPlanError(.manifest, "the manifest names no portfolio", path: path) }
        return manifest
    }

    private static func describe(_ error: DecodingError) -> String {
        func at(_ path: [any CodingKey]) -> String {
            let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(at(context.codingPath + [key])): missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(at(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "not JSON: \(context.underlyingError.map { "\($0)" } ?? context.debugDescription)" : "\(at(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
