/// The regular expressions of a spec's `match:` (Swift's regex syntax, which is Perl's and ICU's):
/// checked when the spec is loaded, so a bad one is an error with its line, not a failure per row.
///
/// Swift's engine backtracks, and a spec is shared between users: a pattern that can match the
/// same text in exponentially many ways (`^(a+)+$` ran past 60 s on a 41-character cell) would
/// hang a conversion. So a pattern must be in a checked subset (`backtrackingProblem`): no group
/// repeated without bound whose content is itself repeated without bound or holds an alternative
/// (unless the group is atomic, `(?>…)`, or the repetition possessive, `*+`, `++`), and no nested
/// counted repetitions above 1000 in all. Every pattern of the built-in formats is in it.
public enum SpecPattern {
    /// Why `pattern` is not a regular expression a spec may use, or nil.
    public static func problem(_ pattern: String) -> String? {
        do {
            _ = try Regex(pattern)
        } catch {
            return "\(error)"
        }
        return backtrackingProblem(pattern)
    }

    /// The most repetitions nested counted quantifiers may multiply to (`(a{0,10}){0,100}` is 1000).
    static let maxRepetitions = 1000

    /// What one group (or the whole pattern) holds, as far as backtracking goes.
    private struct Frame {
        /// Something in it repeats without bound (`*`, `+`, `{n,}`).
        var unbounded = false
        /// It holds `|` at its own level or in a group inside.
        var alternative = false
        /// The largest number of times any part of it can repeat (nested counts multiplied).
        var repetitions = 1
        /// Atomic (`(?>…)`): once matched it is not backtracked into.
        var atomic = false
    }

    /// Why `pattern` could take exponential time on some text, or nil (see the type's comment).
    static func backtrackingProblem(_ pattern: String) -> String? {
        let c = Array(pattern.unicodeScalars)
        var stack = [Frame()]
        // What the last atom was, for a quantifier after it.
        var last: Frame?
        var i = 0
        while i < c.count {
            switch c[i] {
            case "\\":
                // An escape: one atom (`\d`, `\.`, `\p{L}`, `\x{41}`).
                i += 1
                if i < c.count, "pPxNkg".unicodeScalars.contains(c[i]), i + 1 < c.count, c[i + 1] == "{" {
                    while i < c.count, c[i] != "}" { i += 1 }
                }
                last = Frame()
                i += 1
            case "[":
                // A character class: one atom, whatever it holds.
                i += 1
                if i < c.count, c[i] == "^" { i += 1 }
                if i < c.count, c[i] == "]" { i += 1 }
                var depth = 1
                while i < c.count, depth > 0 {
                    if c[i] == "\\" {
                        i += 2
                        continue
                    }
                    if c[i] == "[" { depth += 1 }
                    if c[i] == "]" { depth -= 1 }
                    i += 1
                }
                last = Frame()
            case "(":
                var frame = Frame()
                if i + 2 < c.count, c[i + 1] == "?", c[i + 2] == ">" { frame.atomic = true }
                stack.append(frame)
                last = nil
                i += 1
            case ")":
                guard stack.count > 1 else { return nil }  // the engine refused it already
                last = stack.removeLast()
                i += 1
            case "|":
                stack[stack.count - 1].alternative = true
                last = nil
                i += 1
            case "*", "+", "?", "{":
                // A quantifier: its bounds, then a lazy `?` or a possessive `+`.
                var minimum = 0
                var maximum: Int? = nil
                if c[i] == "{" {
                    var j = i + 1
                    var text = ""
                    while j < c.count, c[j] != "}" {
                        text.unicodeScalars.append(c[j])
                        j += 1
                    }
                    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                    guard j < c.count, parts.count <= 2, let low = Int(parts[0]) else {
                        last = Frame()  // a literal brace
                        i += 1
                        continue
                    }
                    minimum = low
                    maximum = parts.count == 1 ? low : (parts[1].isEmpty ? nil : Int(parts[1]))
                    i = j + 1
                } else {
                    maximum = c[i] == "?" ? 1 : nil
                    minimum = c[i] == "+" ? 1 : 0
                    i += 1
                }
                _ = minimum
                var possessive = false
                if i < c.count, c[i] == "?" {
                    i += 1
                } else if i < c.count, c[i] == "+" {
                    possessive = true
                    i += 1
                }
                guard let atom = last else { continue }
                let unboundedHere = maximum == nil
                if unboundedHere, !possessive, !atom.atomic, atom.unbounded || atom.alternative {
                    return
                        "a group repeated without bound whose content can match the same text in several ways (like (a+)+ or (a|b)*) can take exponential time on some cells; repeat a character class instead ([ab]*), or make the group atomic ((?>…)) or the repetition possessive (*+, ++)"
                }
                let repetitions = atom.repetitions * (maximum ?? 1)
                if repetitions > maxRepetitions {
                    return "nested counted repetitions of \(repetitions) in all: at most \(maxRepetitions) are allowed"
                }
                var top = stack[stack.count - 1]
                top.unbounded = top.unbounded || unboundedHere || atom.unbounded
                top.alternative = top.alternative || atom.alternative
                top.repetitions = max(top.repetitions, repetitions)
                stack[stack.count - 1] = top
                last = nil
            default:
                last = Frame()
                i += 1
            }
            // An atom that is a group passes what it holds up to the group around it (when no
            // quantifier follows, it counts once).
            if let atom = last, i < c.count, !"*+?{".unicodeScalars.contains(c[i]) {
                var top = stack[stack.count - 1]
                top.unbounded = top.unbounded || atom.unbounded
                top.alternative = top.alternative || atom.alternative
                top.repetitions = max(top.repetitions, atom.repetitions)
                stack[stack.count - 1] = top
            }
        }
        return nil
    }
}
