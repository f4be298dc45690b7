import Foundation
import Testing
import TradeportCore

/// The movement kind (a change of a position without money) end to end: a spec that reads one,
/// every writer, the readers of tradeport's own outputs, the schema and push's account of it.
@Suite("Movements: positions changed without money, end to end")
struct MovementCommandTests {
    static let spec = """
        tradeport-format: 1
        id: custody-ledger
        description: a custody ledger (test) — buys, deposits and transfers of securities
        source: {type: csv, delimiter: ";", header: 1}
        values: {decimal: ",", thousands: none, timezone: UTC}
        detect: {header: [Date, Operation, Asset, Quantity]}
        columns:
          - {name: time, header: Date, type: datetime, format: "yyyy-MM-dd HH:mm:ss"}
          - {name: what, header: Operation, type: text}
          - {name: asset, header: Asset, type: asset}
          - {name: quantity, header: Quantity, type: decimal, check: positive}
          - {name: price, header: Price, type: decimal, required: false}
          - {name: direction, header: Direction, map: {IN: in, OUT: out}, required: false}
          - {name: isin, header: ISIN, type: text, required: false}
        rows:
          by: what
          trade: [Buy]
          transaction: {Deposit: deposit}
          movement: [Transfer]
        trade: {time: time, side: {const: buy}, base: asset, quote: {const: EUR}, quantity: quantity, price: price, isin: isin}
        transaction: {time: time, asset: asset, amount: quantity}
        movement: {time: time, direction: direction, asset: asset, quantity: quantity, reason: {const: transfer}, isin: isin, note: what}

        """
    static let csv = """
        Date;Operation;Asset;Quantity;Price;Direction;ISIN
        2024-01-02 10:00:00;Deposit;EUR;1000;;;
        2024-01-03 11:00:00;Buy;ACME;10;50;;US0000000001
        2024-02-01 09:00:00;Transfer;ACME;4;;IN;US0000000001
        2024-03-01 09:00:00;Transfer;ACME;1,5;;OUT;US0000000001
        2024-03-02 09:00:00;Transfer;ACME;2;;SIDEWAYS;US0000000001

        """

    func files() throws -> (dir: String, spec: String, input: String) {
        let dir = try CLI.temporaryDirectory()
        try Self.spec.write(toFile: dir + "/custody.yaml", atomically: true, encoding: .utf8)
        try Self.csv.write(toFile: dir + "/ledger.csv", atomically: true, encoding: .utf8)
        return (dir, dir + "/custody.yaml", dir + "/ledger.csv")
    }

    @Test("a spec's movement rows become movements; a direction it does not know is a reject naming it")
    func specRows() throws {
        let (dir, spec, input) = try files()
        let r = try CLI.run(["convert", "--spec", spec, input, "-o", dir + "/out.json"], in: dir)
        #expect(r.status == 1, "\(r.stderr)")  // the reject
        #expect(r.stderr.contains("1 trade, 1 transaction and 2 movements in portfolio main"), "\(r.stderr)")
        #expect(r.stderr.contains("SIDEWAYS"))
        let doc = try CLI.decode(try Data(contentsOf: URL(fileURLWithPath: dir + "/out.json")))
        let moved = doc.portfolios.flatMap(\.movements)
        #expect(
            moved.map { "\($0.direction.rawValue) \($0.asset) \($0.quantity) \($0.reason.rawValue) \($0.isin ?? "")" }
                == ["in ACME 4 transfer US0000000001", "out ACME 1.5 transfer US0000000001"])
        #expect(moved.map(\.source.row) == [4, 5])
        #expect(doc.rejected.map(\.source.row) == [6])
        let text = try String(contentsOfFile: dir + "/out.json", encoding: .utf8)
        #expect(text.contains(#""movements": ["#))
        if CLI.canValidateSchema {
            let v = try CLI.validateSchema(dir + "/out.json")
            #expect(v.status == 0, "\(v.output)")
        }
    }

    @Test("movements come back unchanged from the JSON document, JSON Lines and tradeport's own CSV and XLSX")
    func roundTrips() throws {
        let (dir, spec, input) = try files()
        let original = try CLI.run(["convert", "--spec", spec, input, "--jsonl", "-q", "-o", dir + "/a.jsonl"], in: dir)
        #expect(original.status == 1)
        func movementLines(_ path: String) throws -> [String] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
                .filter { $0.hasPrefix(#"{"kind":"movement""#) }
                .map { $0.replacingOccurrences(of: #","source":\{.*\}\}$"#, with: "}", options: .regularExpression) }
        }
        let expected = try movementLines(dir + "/a.jsonl")
        #expect(expected.count == 2)
        if CLI.canValidateSchema {
            let v = try CLI.validateSchema(dir + "/a.jsonl", jsonl: true)
            #expect(v.status == 0, "\(v.output)")
        }
        for (to, file) in [("json", "b.json"), ("jsonl", "b.jsonl"), ("csv", "b.csv"), ("xlsx", "b.xlsx")] {
            let written = try CLI.run(["convert", "--spec", spec, input, "--to", to, "-q", "-o", dir + "/" + file], in: dir)
            #expect(written.status == 1, "\(to): \(written.stderr)")
            let back = try CLI.run(["convert", dir + "/" + file, "--jsonl", "-q", "-o", dir + "/back-\(to).jsonl"], in: dir)
            // The reject is carried as a skip by tradeport's JSON readers, and not written by the others.
            #expect(back.status == 0, "\(to): \(back.stderr)")
            #expect(try movementLines(dir + "/back-\(to).jsonl") == expected, "\(to)")
        }
    }

    @Test("push counts the movements it cannot send, and sends the rest", .timeLimit(.minutes(1)))
    func pushDryRun() throws {
        let (dir, spec, input) = try files()
        let good = Self.csv.split(separator: "\n").filter { !$0.contains("SIDEWAYS") }.joined(separator: "\n") + "\n"
        try good.write(toFile: input, atomically: true, encoding: .utf8)
        let r = try CLI.run(["push", "--spec", spec, input, "--portfolio", "Custody", "--dry-run"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("would send 1 trade and 1 transaction"), "\(r.stderr)")
        #expect(r.stderr.contains("not sent: 2 movements of positions without money not sent (the server holds trades and transactions only)"), "\(r.stderr)")
    }
}
