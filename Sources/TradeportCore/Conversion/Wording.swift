/// How counts read in summaries and messages, the same in the command line and the libraries.
public enum Wording {
    /// `1 trade`, `2 trades`.
    public static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}
