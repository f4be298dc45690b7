/// What a writer's target cannot hold, or holds another way, counted by what it is: the notes a
/// sink gives after the summary (`WriterNotes`), so nothing is dropped in silence.
struct WriterNoteCounts {
    private var notCarried: [String: Int] = [:]
    private var writtenAs: [String: Int] = [:]

    /// One more of `what` left out (`"deposits (Ghostfolio keeps cash as the account's balance)"`).
    mutating func notCarried(_ what: String) { notCarried[what, default: 0] += 1 }

    /// One more of `what` written another way (`"taxes, as FEE"`).
    mutating func writtenAs(_ what: String) { writtenAs[what, default: 0] += 1 }

    /// `not carried: N what` lines, then `written as TARGET can hold them: N what`, each by what.
    func notes(_ target: String) -> [String] {
        notCarried.sorted { $0.key < $1.key }.map { "not carried: \($0.value) \($0.key)" }
            + writtenAs.sorted { $0.key < $1.key }.map { "written as \(target) can hold them: \($0.value) \($0.key)" }
    }
}
