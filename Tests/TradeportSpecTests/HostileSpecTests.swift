import Foundation
import Testing

@testable import TradeportSpec

/// Specs are shared between users: a pattern, an alias graph or a size must not be able to hang
/// or exhaust a conversion or `formats check` (issue 42, item 11). Each is refused when loading,
/// with its place.
@Suite("Hostile specs are refused when loaded")
struct HostileSpecTests {
    static func spec(match pattern: String) -> String {
        Specs.minimal.replacingOccurrences(
            of: "  - {name: price, header: Price, type: decimal}",
            with:
                "  - {name: price, header: Price, type: decimal}\n  - {name: note, header: Note, type: text, required: false}\n  - {name: part, from: note, match: '\(pattern)', type: text, required: false}"
        )
    }

    @Test(arguments: ["^(a+)+$", "(a*)*b", "^(a|aa)+$", "(x+x+)+y", "((ab)*)+"])
    func patternsThatBacktrackExponentiallyAreRefused(_ pattern: String) {
        let errors = Specs.errors(Self.spec(match: pattern))
        #expect(errors.contains { $0.contains("columns.part.match") && $0.contains("exponential time") }, "\(errors)")
    }

    @Test func nestedCountsAreBounded() {
        let errors = Specs.errors(Self.spec(match: "((a{0,1000}){0,1000}){0,1000}$"))
        #expect(errors.contains { $0.contains("nested counted repetitions of 1000000") }, "\(errors)")
    }

    @Test(arguments: [
        "^(?>a+)+$", "^(a+)++$", "^([ab]+)$", "^(?:[\\w ]+: )?\\w+ (\\d[\\d ]*(?:,\\d+)?)(?: |@)", "(a{2}){3}", "^\\d{2}:\\d{2}(?::\\d{2})?$", "x{,3}"
    ])
    func safePatternsLoad(_ pattern: String) throws {
        #expect(Specs.errors(Self.spec(match: pattern)).isEmpty)
    }

    @Test func everyBuiltInPatternIsInTheSubset() throws {
        let folder = Specs.repository + "/formats"
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".yaml") {
            let spec = try SpecLoader.load(contentsOfFile: folder + "/" + file).spec
            for column in spec.columns {
                if let pattern = column.match { #expect(SpecPattern.backtrackingProblem(pattern) == nil, "\(file): \(pattern)") }
            }
        }
    }

    // A 2 KB spec whose `add:` nodes reuse anchors 26 deep took formats check past 4 GB in 52 s.
    @Test func anAliasGraphIsRefusedBeforeItIsWalked() {
        var value = "qty"
        for level in 0..<26 { value = "{add: [&d\(level) \(value), *d\(level)]}" }
        let text = Specs.minimal.replacingOccurrences(of: "  quantity: quantity", with: "  quantity: \(value)")
        #expect(text.utf8.count < 2048)
        let errors = Specs.errors(text)
        #expect(errors.contains { $0.contains("more than 100000 values in all") }, "\(errors)")
    }

    @Test func aSpecPastOneMebibyteIsRefused() {
        let text = Specs.minimal + "\n# " + String(repeating: "x", count: 1 << 20) + "\n"
        #expect(Specs.errors(text) == ["1:: a spec of \(text.utf8.count) bytes: a spec may hold at most 1048576 bytes"])
    }

    @Test func aBalanceRuleNamesDecimalAndAssetColumnsReadOnEveryRow() {
        let base = Specs.minimal.replacingOccurrences(
            of: "  - {name: price, header: Price, type: decimal}",
            with:
                "  - {name: price, header: Price, type: decimal}\n  - {name: bal, header: Balance, type: decimal, for: [trade]}\n  - {name: cur, header: Cur, type: text}"
        )
        let errors = Specs.errors(base + "\nbalance: {amount: bal, asset: cur}\n")
        #expect(errors.contains { $0.contains("balance.amount: 'bal' is read on some kinds of row only") }, "\(errors)")
        #expect(errors.contains { $0.contains("balance.asset: 'cur' is not an asset column") }, "\(errors)")
        #expect(Specs.errors(base + "\nbalance: {amount: price, asset: {const: USD}}\n").isEmpty)
    }

    // issue 42, item 3: formats check warns of a column nothing uses; the built-in specs have none.
    @Test func unusedColumnsAreFoundAndTheBuiltInsHaveNone() throws {
        let spec = try Specs.load(
            Specs.minimal.replacingOccurrences(
                of: "  - {name: price, header: Price, type: decimal}",
                with: "  - {name: price, header: Price, type: decimal}\n  - {name: forgotten, header: Fee, type: decimal, required: false}"))
        #expect(spec.unusedColumns.map(\.name) == ["forgotten"])
        let folder = Specs.repository + "/formats"
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".yaml") {
            let builtIn = try SpecLoader.load(contentsOfFile: folder + "/" + file).spec
            #expect(builtIn.unusedColumns.isEmpty, "\(file): \(builtIn.unusedColumns.map(\.name))")
        }
    }
}
