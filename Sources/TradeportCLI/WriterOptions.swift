import ArgumentParser
import Foundation
import TradeportCore
import TradeportFormats

/// What changes what a writer writes: the accounts of the ledger writers, the zone of their
/// dates, Ghostfolio's data source.
struct WriterOptionGroup: ParsableArguments {
    @Option(
        name: .customLong("account"),
        help: ArgumentHelp(
            "beancount, hledger: post ROLE to the account TEMPLATE ({portfolio} and {asset} are filled in), e.g. --account 'fees=Expenses:Broker:{portfolio}'. Roles: \(AccountNames.Role.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "ROLE=TEMPLATE"))
    var account: [String] = []

    @Option(
        name: .customLong("accounts"),
        help: ArgumentHelp("beancount, hledger: read ROLE: TEMPLATE lines from FILE (--account given too wins).", valueName: "FILE"))
    var accountsFile: String?

    @Option(
        name: .customLong("dates-in"),
        help: ArgumentHelp(
            "beancount, hledger, portfolio-performance: the zone whose calendar dates the operations get (an IANA name; UTC by default).", valueName: "TZ"))
    var datesIn: String?

    @Option(
        name: .customLong("data-source"),
        help: ArgumentHelp(
            "ghostfolio: the data source of the securities --symbols does not map, by their code (YAHOO, COINGECKO, …); by default each is a custom (MANUAL) profile of its own.",
            valueName: "SOURCE"))
    var dataSource: String?

    @Option(
        name: .customLong("symbols"),
        help: ArgumentHelp(
            "ghostfolio, portfolio-performance: the symbol map, a CSV file of isin, code, venue, target, symbol, data_source, name (see docs/writers.md).",
            valueName: "FILE"))
    var symbolsFile: String?

    /// What is wrong with `--data-source SOURCE`, if anything (`convert` and `push` say it).
    static func problem(dataSource: String) -> String? {
        guard !dataSource.isEmpty, dataSource.allSatisfy({ $0.isASCII && ($0.isUppercase || $0 == "_") }) else {
            return "--data-source \(dataSource): expected a Ghostfolio data source in capitals, like YAHOO or COINGECKO"
        }
        return nil
    }

    func writeOptions() throws -> WriteOptions {
        var options = WriteOptions()
        do {
            if let accountsFile {
                let text: String
                do {
                    text = try String(contentsOfFile: accountsFile, encoding: .utf8)
                } catch {
                    throw AccountNamesError(.unreadable, "cannot be read", text: "", source: accountsFile)
                }
                try options.accounts.read(text, path: accountsFile)
            }
            for item in account {
                guard let eq = item.firstIndex(of: "=") else {
                    throw AccountNamesError(.malformedLine, "expected ROLE=TEMPLATE", text: item, source: "--account \(item)")
                }
                try options.accounts.set(String(item[..<eq]), String(item[item.index(after: eq)...]))
            }
        } catch let error as AccountNamesError {
            throw ValidationError(error.description)
        }
        if let datesIn {
            guard let zone = SourceTimeZone(identifier: datesIn) else {
                throw ValidationError("--dates-in \(datesIn): unknown time zone (use an IANA name like Europe/Moscow or UTC)")
            }
            options.dates = zone
        }
        if let dataSource {
            if let problem = Self.problem(dataSource: dataSource) { throw ValidationError(problem) }
            options.dataSource = dataSource
        }
        if let symbolsFile {
            do { options.symbols = try SymbolMapFile.read(symbolsFile) } catch { throw ValidationError(error.description) }
        }
        return options
    }
}
