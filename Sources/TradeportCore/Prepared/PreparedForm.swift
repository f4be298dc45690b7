import Foundation

/// The forms in which a sink can take an operation a reader made ready on its own threads
/// (`ConversionSink.preparedForm`).
public enum PreparedForm: Sendable {
    /// The operation as one JSON Lines line: `{"kind":…,"portfolio":…,` its canonical fields `}` and
    /// a line break (`CanonicalJSON.appendLine`).
    case jsonLine
    /// The operation as the canonical document lists it: `{` its canonical fields `}`
    /// (`CanonicalJSON.appendOperationFields`).
    case documentObject
    /// The bytes a sink outside Core renders from the operation's model value, with its id given
    /// (`OperationRenderer`): what only that sink reads back. A reader that writes canonical
    /// fields itself (`writesCanonicalFields`) makes the model value for it instead.
    case rendered(any OperationRenderer)

    /// Whether the bytes are canonical fields, which a reader may write without a model value
    /// (`OperationPreparation.appendBytes`).
    public var writesCanonicalFields: Bool {
        switch self {
        case .jsonLine, .documentObject: true
        case .rendered: false
        }
    }
}
