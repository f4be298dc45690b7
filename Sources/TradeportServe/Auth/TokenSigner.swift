import Crypto
import ExtrasBase64
import Foundation
import JWTKit

/// Signs and checks the API's tokens through vapor/jwt-kit: JWTs with HS256, the username as
/// subject, and an expiry (an hour by default), as the original server's. A token whose header names
/// another algorithm is refused before its signature is looked at (no `none`, no RS256 with the
/// secret as a key).
public struct TokenSigner: Sendable {
    private let key: HMACKey
    public let lifetime: Int64

    /// A secret shorter than HS256's 32 bytes is stretched to them through SHA-256 (jwt-kit, as
    /// RFC 7518 asks, wants a key at least as long as the hash).
    public init(secret: [UInt8], lifetime: Int64 = 3600) {
        key = HMACKey(from: secret.count >= 32 ? secret : Array(SHA256.hash(data: secret)))
        self.lifetime = lifetime
    }

    /// Why a token is refused.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case malformed, badSignature, expired, notYetValid
        case unsupportedAlgorithm(String)

        public var description: String {
            switch self {
            case .malformed: return "the token is not a JWT"
            case .badSignature: return "the token's signature is not valid"
            case .expired: return "the token has expired; log in again"
            case .notYetValid: return "the token is not valid yet (its nbf lies in the future)"
            case .unsupportedAlgorithm(let a): return "the token is signed with \(a), not HS256"
            }
        }
    }

    /// What a token says: its user, when it was issued and until when it is good, and, when it
    /// names one, from when (`nbf`, RFC 7519 4.1.5: a token is not accepted before it).
    struct Claims: JWTPayload {
        var sub: SubjectClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var nbf: NotBeforeClaim?

        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
            try nbf?.verifyNotBefore()
        }
    }

    /// The keys, made per call: a collection is an actor, and a signer stays a plain value.
    private func keys() async -> JWTKeyCollection {
        await JWTKeyCollection().add(hmac: key, digestAlgorithm: .sha256)
    }

    /// A token for `username`, issued at `now` (seconds since 1970), good from `notBefore` when
    /// given (its `nbf`).
    public func token(for username: String, now: Int64 = Int64(Date().timeIntervalSince1970), notBefore: Int64? = nil) async throws -> String {
        let claims = Claims(
            sub: SubjectClaim(value: username),
            iat: IssuedAtClaim(value: Date(timeIntervalSince1970: TimeInterval(now))),
            exp: ExpirationClaim(value: Date(timeIntervalSince1970: TimeInterval(now + lifetime))),
            nbf: notBefore.map { NotBeforeClaim(value: Date(timeIntervalSince1970: TimeInterval($0))) })
        return try await keys().sign(claims)
    }

    /// The username a valid, unexpired token was issued for.
    public func subject(of token: String) async throws(Refusal) -> String {
        let bytes = Array(token.utf8)
        let header: JWTHeader
        do {
            let parts = try DefaultJWTParser().getTokenParts(bytes)
            let decoded = try Base64.decode(bytes: parts.header, options: [.base64UrlAlphabet, .omitPaddingCharacter])
            header = try JSONDecoder().decode(JWTHeader.self, from: Data(decoded))
        } catch {
            throw .malformed
        }
        guard let algorithm = header.alg else { throw .malformed }
        guard algorithm == "HS256" else { throw .unsupportedAlgorithm(algorithm) }
        do {
            return try await keys().verify(bytes, as: Claims.self).sub.value
        } catch let error as JWTError {
            switch error.errorType {
            case .signatureVerificationFailed: throw .badSignature
            case .claimVerificationFailure: throw error.failedClaim is NotBeforeClaim ? .notYetValid : .expired
            default: throw .malformed
            }
        } catch {
            throw .malformed
        }
    }

    /// A new secret: 32 random bytes as 64 hex digits (what the secret file and PostgreSQL's
    /// `settings` keep).
    static func newSecret() -> [UInt8] {
        let key = SymmetricKey(size: .bits256)
        return Array(key.withUnsafeBytes { $0.map { String(format: "%02x", $0) } }.joined().utf8)
    }

    /// The secret: `TRADEPORT_JWT_SECRET` when set, else the one kept in `directory/jwt-secret`,
    /// generated (32 random bytes, readable by the owner only) on first start.
    public static func secret(environment: [String: String], directory: String) throws -> [UInt8] {
        if let text = environment["TRADEPORT_JWT_SECRET"], !text.isEmpty { return Array(text.utf8) }
        let path = (directory as NSString).appendingPathComponent("jwt-secret")
        if let data = FileManager.default.contents(atPath: path), !data.isEmpty {
            return Array(data)
        }
        let hex = newSecret()
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(hex), attributes: [.posixPermissions: 0o600]) else {
            throw ServeError(.tokenSecret, subject: path, "cannot write the token secret to \(path)")
        }
        // Two servers starting at once on one directory must agree on one secret: the first
        // rename wins, and both read what is there.
        if link(temporary, path) != 0 && errno != EEXIST {
            unlink(temporary)
            throw ServeError(.tokenSecret, subject: path, "cannot write the token secret to \(path): \(String(cString: strerror(errno)))")
        }
        unlink(temporary)
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else {
            throw ServeError(.tokenSecret, subject: path, "cannot read the token secret from \(path)")
        }
        return Array(data)
    }
}
