import TradeportCore

/// A portfolio as the server answers it.
public struct PortfolioRecord: Sendable, Hashable {
    public var id: Int64
    public var name: String

    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }

    public init(json: JSONValue) throws(RecordError) {
        let r = try ObjectReader(json, what: "portfolio")
        id = try r.integer("id")
        name = try r.string("name")
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("id")
        w.number(id)
        w.key("name")
        w.string(name)
        w.endObject()
    }
}
