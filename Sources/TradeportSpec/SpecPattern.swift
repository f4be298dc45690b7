/// The regular expressions of a spec's `match:` (Swift's regex syntax, which is Perl's and ICU's):
/// checked when the spec is loaded, so a bad one is an error with its line, not a failure per row.
public enum SpecPattern {
    /// Why `pattern` is not a regular expression, or nil.
    public static func problem(_ pattern: String) -> String? {
        do {
            _ = try Regex(pattern)
            return nil
        } catch {
            return "\(error)"
        }
    }
}
