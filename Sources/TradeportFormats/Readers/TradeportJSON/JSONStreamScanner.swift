import TradeportCore

/// Walks a JSON text as it streams by, and hands over whole the values at the places asked for
/// (the operations of a canonical document, say), each with the line it starts on: memory holds
/// one such value at a time, whatever the size of the text. The structure around them is checked
/// as it goes; what is not asked for is skipped without being built.
struct JSONStreamScanner {
    /// One step of the path to a value: a member name, or an element's index.
    enum Step: Equatable {
        case member(String)
        case element(Int)
    }

    /// Why the text is not JSON, where.
    struct Malformed: Error {
        let line: Int
        let column: Int
        let message: String
    }

    private enum Container {
        /// An object; `key` is the member being read (nil while a name is expected).
        case object(key: String?, members: Int)
        case array(elements: Int)
    }

    /// Whether the value at a path is handed over whole.
    let wants: ([Step]) -> Bool
    /// Receives a value asked for: its path, its bytes, and the line and column (1-based, in
    /// bytes) it starts at.
    let take: ([Step], [UInt8], Int, Int) throws -> Void

    private var stack: [Container] = []
    private var line = 1
    private var column = 0
    /// What the scanner expects next at the current level.
    private enum Expect { case value, nameOrEnd, name, colon, commaOrEnd, end }
    private var expect = Expect.value
    private var sawTop = false

    // A token being read across chunks.
    private var token: [UInt8] = []
    private enum TokenKind { case none, string, literal }
    private var tokenKind = TokenKind.none
    private var escaped = false

    // A value being handed over whole.
    private var capture: [UInt8] = []
    private var capturing = false
    private var captureDepth = 0
    private var captureInString = false
    private var captureEscaped = false
    private var captureLine = 0
    private var captureColumn = 0
    private var capturePath: [Step] = []
    /// The most a value handed over may hold.
    static let captureLimit = 16 << 20

    init(wants: @escaping ([Step]) -> Bool, take: @escaping ([Step], [UInt8], Int, Int) throws -> Void) {
        self.wants = wants
        self.take = take
    }

    private func fail(_ message: String) -> Malformed { Malformed(line: line, column: column, message: message) }

    private var path: [Step] {
        stack.map { c in
            switch c {
            case .object(let key, _): return .member(key ?? "")
            case .array(let n): return .element(n)
            }
        }
    }

    /// Reads the next bytes of the text.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) throws {
        for b in bytes {
            if b == 0x0A {
                line += 1
                column = 0
            } else {
                column += 1
            }
            if capturing {
                try captureByte(b)
                continue
            }
            if tokenKind != .none {
                if try continueToken(b) { continue }
            }
            try structural(b)
        }
    }

    /// Ends the text: it must hold one whole value.
    mutating func finish() throws {
        if tokenKind == .literal { try endLiteral() }
        if capturing || tokenKind != .none || !stack.isEmpty { throw fail("the text ends inside a value") }
        if !sawTop { throw fail("the text holds no JSON value") }
    }

    private mutating func captureByte(_ b: UInt8) throws {
        capture.append(b)
        if capture.count > Self.captureLimit { throw fail("a value of more than \(Self.captureLimit >> 20) MiB") }
        if captureInString {
            if captureEscaped {
                captureEscaped = false
            } else if b == 0x5C {
                captureEscaped = true
            } else if b == 0x22 {
                captureInString = false
                if captureDepth == 0 { try endCapture() }
            }
            return
        }
        switch b {
        case 0x22: captureInString = true
        case 0x7B, 0x5B: captureDepth += 1
        case 0x7D, 0x5D:
            captureDepth -= 1
            if captureDepth == 0 { try endCapture() }
        default: break
        }
    }

    private mutating func endCapture() throws {
        capturing = false
        let bytes = capture
        capture = []
        try take(capturePath, bytes, captureLine, captureColumn)
        valueDone()
    }

    /// Starts a value here; true when it is handed over whole (the scanner then copies it).
    private mutating func beginValue(_ first: UInt8) throws -> Bool {
        guard expect == .value else { throw fail("unexpected '\(Character(UnicodeScalar(first)))'") }
        if stack.isEmpty {
            if sawTop { throw fail("more than one value") }
            sawTop = true
        }
        let here = path
        guard !stack.isEmpty, wants(here) else { return false }
        capturing = true
        capturePath = here
        captureLine = line
        captureColumn = column
        capture = [first]
        captureInString = first == 0x22
        captureEscaped = false
        captureDepth = (first == 0x7B || first == 0x5B) ? 1 : 0
        if first != 0x22 && captureDepth == 0 {
            // A literal handed over: read as a token, then given.
            capturing = false
            tokenKind = .literal
            token = [first]
            literalCaptured = true
        }
        return true
    }

    private var literalCaptured = false

    /// A value at the current level is complete.
    private mutating func valueDone() {
        guard let last = stack.popLast() else {
            expect = .end
            return
        }
        switch last {
        case .object(_, let n): stack.append(.object(key: nil, members: n + 1))
        case .array(let n): stack.append(.array(elements: n + 1))
        }
        expect = .commaOrEnd
    }

    private mutating func structural(_ b: UInt8) throws {
        switch b {
        case 0x20, 0x09, 0x0A, 0x0D: return
        case 0xEF where !sawTop && expect == .value && stack.isEmpty && column <= 3, 0xBB where !sawTop && column <= 3, 0xBF where !sawTop && column <= 3:
            return  // a byte-order mark
        default: break
        }
        switch expect {
        case .end:
            throw fail("unexpected '\(Character(UnicodeScalar(b)))' after the value")
        case .colon:
            guard b == 0x3A else { throw fail("expected ':' after a member name") }
            expect = .value
            return
        case .commaOrEnd:
            if b == 0x2C {
                if case .object = stack.last! { expect = .name } else { expect = .value }
                return
            }
            try close(b)
            return
        case .nameOrEnd, .name:
            if b == 0x7D, expect == .nameOrEnd {
                try close(b)
                return
            }
            guard b == 0x22 else { throw fail("expected a member name in quotes") }
            tokenKind = .string
            token = []
            escaped = false
            return
        case .value:
            if case .array(let n)? = stack.last, n == 0, b == 0x5D {
                try close(b)
                return
            }
            if try beginValue(b) { return }
            switch b {
            case 0x7B:
                stack.append(.object(key: nil, members: 0))
                expect = .nameOrEnd
            case 0x5B:
                stack.append(.array(elements: 0))
                expect = .value
            case 0x22:
                tokenKind = .string
                token = []
                escaped = false
            case 0x2D, 0x30...0x39, 0x74, 0x66, 0x6E:
                tokenKind = .literal
                token = [b]
            default:
                throw fail("unexpected '\(Character(UnicodeScalar(b)))' where a value should be")
            }
        }
    }

    private mutating func close(_ b: UInt8) throws {
        switch (stack.last, b) {
        case (.object?, 0x7D), (.array?, 0x5D):
            stack.removeLast()
            if stack.isEmpty { expect = .end } else { valueDone() }
        default:
            throw fail("unexpected '\(Character(UnicodeScalar(b)))'")
        }
    }

    /// Feeds a byte to the token being read; false when the byte ends a literal and is itself
    /// structural.
    private mutating func continueToken(_ b: UInt8) throws -> Bool {
        switch tokenKind {
        case .string:
            if escaped {
                escaped = false
                token.append(b)
                return true
            }
            if b == 0x5C {
                escaped = true
                token.append(b)
                return true
            }
            if b != 0x22 {
                token.append(b)
                return true
            }
            tokenKind = .none
            if expect == .name || expect == .nameOrEnd {
                let name = try decodeString(token)
                if case .object(_, let n)? = stack.popLast() { stack.append(.object(key: name, members: n)) }
                expect = .colon
            } else {
                valueDone()
            }
            return true
        case .literal:
            switch b {
            case 0x30...0x39, 0x61...0x7A, 0x2B, 0x2D, 0x2E, 0x45:
                token.append(b)
                return true
            default:
                try endLiteral()
                return false
            }
        case .none:
            return false
        }
    }

    private mutating func endLiteral() throws {
        tokenKind = .none
        let text = token
        if literalCaptured {
            literalCaptured = false
            try take(capturePath, text, captureLine, captureColumn)
            valueDone()
            return
        }
        if text == Array("true".utf8) || text == Array("false".utf8) || text == Array("null".utf8) {
            valueDone()
            return
        }
        guard case .number = try? JSONValue.parse(text) else { throw fail("'\(String(decoding: text, as: UTF8.self))' is not a value") }
        valueDone()
    }

    private func decodeString(_ raw: [UInt8]) throws -> String {
        guard case .string(let s) = try? JSONValue.parse([0x22] + raw + [0x22]) else { throw fail("a malformed string") }
        return s
    }
}
