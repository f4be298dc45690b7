/// Options that change how a source is read (pandoc's `ReaderOptions`).
public struct ReadOptions: Sendable {
    /// The zone of the source's local times; `nil` for the format's own default.
    public var timeZone: SourceTimeZone?

    public init(timeZone: SourceTimeZone? = nil) {
        self.timeZone = timeZone
    }
}
