/// Options that change how a source is read (pandoc's `ReaderOptions`).
public struct ReadOptions: Sendable {
    /// The zone of the source's local times; `nil` for the format's own default.
    public var timeZone: SourceTimeZone?
    /// Values the user gives a format's parameters (`--param name=value`); a format takes those it
    /// declares and leaves the rest.
    public var parameters: [String: String]

    public init(timeZone: SourceTimeZone? = nil, parameters: [String: String] = [:]) {
        self.timeZone = timeZone
        self.parameters = parameters
    }
}
