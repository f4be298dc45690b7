import TradeportCore
import Crypto
import Foundation
import TradeportBalances

/// Signs and checks the API's tokens: JWTs with HS256, the username as subject, and an expiry
/// (an hour by default), as the original server's.
public struct TokenSigner: Sendable {
    private let key: SymmetricKey
    public let lifetime: Int64

    public init(secret: [UInt8], lifetime: Int64 = 3600) {
        key = SymmetricKey(data: secret)
        self.lifetime = lifetime
    }

    /// Why a token is refused.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case malformed, badSignature, expired, unsupportedAlgorithm(String)

        public var description: String {
            switch self {
            case .malformed: return "the token is not a JWT"
            case .badSignature: return "the token's signature is not valid"
            case .expired: return "the token has expired; log in again"
            case .unsupportedAlgorithm(let a): return "the token is signed with \(a), not HS256"
            }
        }
    }

    /// A token for `username`, issued at `now` (seconds since 1970).
    public func token(for username: String, now: Int64 = Int64(Date().timeIntervalSince1970)) -> String {
        let header = Self.base64URL(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        var payload = JSONWriter()
        payload.beginObject()
        payload.key("sub"); payload.string(username)
        payload.key("iat"); payload.number(now)
        payload.key("exp"); payload.number(now + lifetime)
        payload.endObject()
        let signingInput = header + "." + Self.base64URL(payload.bytes)
        let mac = HMAC<SHA256>.authenticationCode(for: Array(signingInput.utf8), using: key)
        return signingInput + "." + Self.base64URL(Array(mac))
    }

    /// The username a valid, unexpired token was issued for.
    public func subject(of token: String, now: Int64 = Int64(Date().timeIntervalSince1970)) throws(Refusal) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Self.decodeBase64URL(parts[0]),
              let payloadBytes = Self.decodeBase64URL(parts[1]), let signature = Self.decodeBase64URL(parts[2]),
              let header = try? JSONValue.parse(headerBytes), let payload = try? JSONValue.parse(payloadBytes)
        else { throw .malformed }
        guard case .string(let algorithm)? = header["alg"] else { throw .malformed }
        guard algorithm == "HS256" else { throw .unsupportedAlgorithm(algorithm) }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: key) else {
            throw .badSignature
        }
        guard case .string(let subject)? = payload["sub"], case .number(let expText)? = payload["exp"],
              let exp = Self.seconds(expText)
        else { throw .malformed }
        guard now < exp else { throw .expired }
        return subject
    }

    /// A NumericDate's whole seconds: digits, with an optional fraction that is dropped (a JWT may
    /// carry one). Read from the text, never through a binary float; exponents are refused.
    public static func seconds(_ text: String) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = Int64(parts[0]) else { return nil }
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        }
        return whole
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decodeBase64URL(_ text: Substring) -> [UInt8]? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s).map { Array($0) }
    }

    /// The secret: `TRADEPORT_JWT_SECRET` when set, else the one kept in `directory/jwt-secret`,
    /// generated (32 random bytes, readable by the owner only) on first start.
    public static func secret(environment: [String: String], directory: String) throws -> [UInt8] {
        if let text = environment["TRADEPORT_JWT_SECRET"], !text.isEmpty { return Array(text.utf8) }
        let path = (directory as NSString).appendingPathComponent("jwt-secret")
        if let data = FileManager.default.contents(atPath: path), !data.isEmpty {
            return Array(data)
        }
        let key = SymmetricKey(size: .bits256)
        let bytes = key.withUnsafeBytes { Array($0) }
        let hex = Array(bytes.map { String(format: "%02x", $0) }.joined().utf8)
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(hex), attributes: [.posixPermissions: 0o600]) else {
            throw ServeError("cannot write the token secret to \(path)")
        }
        // Two servers starting at once on one directory must agree on one secret: the first
        // rename wins, and both read what is there.
        if link(temporary, path) != 0 && errno != EEXIST {
            unlink(temporary)
            throw ServeError("cannot write the token secret to \(path): \(String(cString: strerror(errno)))")
        }
        unlink(temporary)
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else {
            throw ServeError("cannot read the token secret from \(path)")
        }
        return Array(data)
    }
}

/// A failure to start or run the server, with a message for the user.
public struct ServeError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
