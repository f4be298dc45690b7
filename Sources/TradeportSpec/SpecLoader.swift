import Foundation
import Yams

/// Reads a format spec from YAML: walks the node tree (every node knows its line), checks every
/// key and value, and reports every problem with its file, line and key, not only the first.
/// Values are read as the text written (`no` stays `no`, `0,5` stays `0,5`): no YAML typing.
public enum SpecLoader {
    /// The `tradeport-format` version this loader reads.
    public static let version = 1

    /// The spec in `text`, read from `file` (for messages); throws `SpecErrors`.
    /// `patternsChecked`: its `match:` patterns were already checked (a built-in spec, checked when
    /// tradeport was built), so they are not compiled here — every command loads every built-in spec.
    public static func load(text: String, file: String, patternsChecked: Bool = false) throws -> FormatSpec {
        let reader = SpecParser(file: file)
        reader.text = text
        reader.checkPatterns = !patternsChecked
        // A spec is a page or two: one far larger is a mistake or an attack (every spec in
        // ./formats/ is loaded on every command).
        let size = text.utf8.count
        guard size <= maxBytes else {
            throw SpecErrors([
                SpecError(SpecLocation(file: file, line: 1, column: 1), key: "", "a spec of \(size) bytes: a spec may hold at most \(maxBytes) bytes")
            ])
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, .basic)  // no implicit typing: values are read as written, and no regex runs per scalar
        } catch let error as YamlError {
            throw SpecErrors([reader.yamlError(error)])
        }
        // Aliases make the tree a graph whose walk can double at every level (a 2 KB spec whose
        // `add:` nodes reuse anchors 26 deep): count the nodes first, with a budget, before walking.
        if let root {
            var budget = maxNodes
            if let node = overBudget(root, &budget) {
                throw SpecErrors([
                    SpecError(
                        reader.location(node), key: "",
                        "more than \(maxNodes) values in all (YAML anchors and aliases, &name and *name, repeat a part each time it is named): write the spec out without them"
                    )
                ])
            }
        }
        // A draft's open questions (`tradeport formats new` writes them as `TODO: …` values).
        if let root {
            let todos = questions(root).map {
                SpecError(reader.location($0.node), key: "", "a question the draft left open: \($0.text) (answer it, or remove the line)")
            }
            if !todos.isEmpty { throw SpecErrors(todos) }
        }
        guard let root, let spec = reader.spec(root), reader.errors.isEmpty else {
            if reader.errors.isEmpty { reader.fail(root, "", "the file is empty; a spec is a mapping of keys (tradeport-format, id, source, columns, …)") }
            throw SpecErrors(reader.errors)
        }
        return spec
    }

    /// The most bytes a spec's text may hold.
    public static let maxBytes = 1 << 20
    /// The most nodes (keys, values, list items) a spec's YAML tree may hold, aliases counted each
    /// time they are named. The built-in specs hold a few hundred.
    public static let maxNodes = 100_000

    /// The values that begin with `TODO` (a draft's questions), in the file's order.
    private static func questions(_ node: Node) -> [(node: Node, text: String)] {
        switch node {
        case .scalar(let scalar):
            let t = scalar.string
            return t == "TODO" || t.hasPrefix("TODO:") || t.hasPrefix("TODO ") ? [(node, t)] : []
        case .mapping(let mapping):
            return mapping.flatMap { questions($0.value) }
        case .sequence(let sequence):
            return sequence.flatMap { questions($0) }
        default:
            return []
        }
    }

    /// The node at which the walk of `node` goes past `budget` nodes, or nil.
    private static func overBudget(_ node: Node, _ budget: inout Int) -> Node? {
        budget -= 1
        if budget < 0 { return node }
        switch node {
        case .mapping(let mapping):
            for (key, value) in mapping {
                if let n = overBudget(key, &budget) ?? overBudget(value, &budget) { return n }
            }
        case .sequence(let sequence):
            for item in sequence {
                if let n = overBudget(item, &budget) { return n }
            }
        default:
            break
        }
        return nil
    }

    /// The spec in the file at `path`, and its text; throws `SpecErrors` (an unreadable file is
    /// one error at its line 1).
    public static func load(contentsOfFile path: String) throws -> (spec: FormatSpec, text: String) {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw SpecErrors([SpecError(SpecLocation(file: path, line: 1, column: 1), key: "", "cannot read the file as UTF-8 text")])
        }
        return (try load(text: text, file: path), text)
    }
}

/// The walk over one spec's nodes, collecting errors.
final class SpecParser {
    let file: String
    var errors: [SpecError] = []
    /// Whether each `match:` pattern is compiled and checked (`SpecPattern.problem`).
    var checkPatterns = true
    /// `rows.by`'s second column, when it names two.
    var rowKindAlso: String?

    init(file: String) { self.file = file }

    func location(_ node: Node?) -> SpecLocation {
        let mark = node?.mark
        return SpecLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    func fail(_ node: Node?, _ key: String, _ message: String) {
        errors.append(SpecError(location(node), key: key, message))
    }

    func yamlError(_ error: YamlError) -> SpecError {
        func at(_ mark: Mark) -> SpecLocation { SpecLocation(file: file, line: mark.line, column: mark.column) }
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return SpecError(at(mark), key: "", "not valid YAML: \(problem)\(commentHint(before: mark.line))")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return SpecError(at(context.mark), key: duplicates.joined(separator: ", "), "the key is given twice")
        default:
            return SpecError(SpecLocation(file: file, line: 1, column: 1), key: "", "not valid YAML: \(error)")
        }
    }

    /// The spec's text, for hints in YAML errors.
    var text = ""
    /// The names under `parameters:`, which `{param: name}` may use.
    var parameterNames: Set<String> = []

    /// A YAML error often comes a line after its cause: an unquoted ` #` that made the rest of a
    /// value a comment (`match: ^(\d+) #`). Names the nearest such line at or before `line`.
    func commentHint(before line: Int) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var n = min(line, lines.count)
        while n >= 1 && n >= line - 3 {
            let l = lines[n - 1]
            if let hash = l.range(of: " #"), let colon = l.range(of: ": ", options: .backwards, range: l.startIndex..<hash.lowerBound) {
                let value = l[colon.upperBound..<hash.lowerBound].trimmingCharacters(in: .whitespaces)
                if !value.isEmpty, !value.hasPrefix("'"), !value.hasPrefix("\""), !value.hasPrefix("#") {
                    return " (line \(n) has ' #' in an unquoted value, where YAML begins a comment: quote the value, like '\(value) #…')"
                }
            }
            n -= 1
        }
        return ""
    }

    // MARK: - Nodes

    /// A mapping's entries, after checking that every key is a plain string and one of `allowed`.
    struct Entries {
        let node: Node
        let path: String
        var pairs: [(key: String, keyNode: Node, value: Node)]

        func value(_ key: String) -> (keyNode: Node, value: Node)? {
            pairs.first { $0.key == key }.map { ($0.keyNode, $0.value) }
        }

        func keyPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }
    }

    func entries(_ node: Node, _ path: String, allowed: [String], what: String) -> Entries? {
        guard case .mapping(let mapping) = node else {
            fail(node, path, "expected \(what), a mapping of keys (\(allowed.joined(separator: ", ")))")
            return nil
        }
        var pairs: [(String, Node, Node)] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                fail(keyNode, path, "a key must be plain text")
                continue
            }
            let key = scalar.string
            guard allowed.contains(key) else {
                let near = allowed.min { distance($0, key) < distance($1, key) }.flatMap { distance($0, key) <= 2 ? " (did you mean '\($0)'?)" : nil } ?? ""
                fail(keyNode, path.isEmpty ? key : path + "." + key, "unknown key\(near); expected one of \(allowed.joined(separator: ", "))")
                continue
            }
            if case .alias = value {
                fail(value, path.isEmpty ? key : path + "." + key, "aliases (*name) are not allowed in a spec; write the value out")
                continue
            }
            pairs.append((key, keyNode, value))
        }
        return Entries(node: node, path: path, pairs: pairs)
    }

    /// A scalar's text, or an error naming what was expected.
    func text(_ node: Node, _ key: String, _ expected: String) -> String? {
        switch node {
        case .scalar(let scalar): return scalar.string
        case .alias: fail(node, key, "aliases (*name) are not allowed in a spec")
        default: fail(node, key, "expected \(expected), found a \(node.isMapping ? "mapping" : "list")")
        }
        return nil
    }

    func requiredText(_ e: Entries, _ key: String, _ expected: String) -> String? {
        guard let (_, value) = e.value(key) else {
            fail(e.node, e.keyPath(key), "missing; expected \(expected)")
            return nil
        }
        return text(value, e.keyPath(key), expected)
    }

    func optionalText(_ e: Entries, _ key: String, _ expected: String) -> String? {
        guard let (_, value) = e.value(key) else { return nil }
        return text(value, e.keyPath(key), expected)
    }

    func integer(_ node: Node, _ key: String, _ range: ClosedRange<Int>, _ expected: String) -> Int? {
        guard let t = text(node, key, expected) else { return nil }
        guard let v = Int(t), range.contains(v) else {
            // The range said too (`round: 31` was refused as "not digits after the point").
            fail(node, key, "'\(t)' is not \(expected) (a whole number from \(range.lowerBound) to \(range.upperBound))")
            return nil
        }
        return v
    }

    func boolean(_ node: Node, _ key: String) -> Bool? {
        guard let t = text(node, key, "true or false") else { return nil }
        switch t {
        case "true": return true
        case "false": return false
        default:
            fail(node, key, "'\(t)' is not true or false")
            return nil
        }
    }

    /// One text or a list of texts.
    func texts(_ node: Node, _ key: String, _ expected: String) -> [String]? {
        if case .sequence(let sequence) = node {
            var out: [String] = []
            for (i, item) in sequence.enumerated() {
                guard let t = text(item, "\(key)[\(i)]", expected) else { return nil }
                out.append(t)
            }
            if out.isEmpty { fail(node, key, "an empty list; expected \(expected)") }
            return out
        }
        return text(node, key, expected).map { [$0] }
    }

    /// One byte, or one of the names given.
    func byte(_ node: Node, _ key: String, names: [String: UInt8] = [:]) -> UInt8? {
        guard let t = text(node, key, "a single character") else { return nil }
        if let b = names[t] { return b }
        if t == "\\t" { return 0x09 }
        guard t.utf8.count == 1, let b = t.utf8.first else {
            fail(node, key, "'\(t)' is not a single ASCII character\(names.isEmpty ? "" : " or one of \(names.keys.sorted().joined(separator: ", "))")")
            return nil
        }
        return b
    }

    private func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}

extension Node {
    var isMapping: Bool { if case .mapping = self { return true } else { return false } }
}
