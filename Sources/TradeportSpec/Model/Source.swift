/// Where the rows are.
public enum Source: Sendable, Equatable {
    case csv(CSVSource)
    case xlsx(XLSXSource)
}
