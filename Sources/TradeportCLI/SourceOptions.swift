import ArgumentParser

/// How `convert` and `push` read their FILEs: one format for all of them, the portfolio their
/// operations go to (or one per sub-account), and the zone of their local times.
struct SourceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Read every FILE as this format (see 'tradeport formats').", valueName: "ID"))
    var format: String?

    @Option(help: ArgumentHelp("Put every operation in portfolio NAME (push: the server's portfolio of that name).", valueName: "NAME"))
    var portfolio = "main"

    @Flag(help: "One portfolio per sub-account of the source, named after it (DSX: trades column 12, deposits column 7, withdrawals column 6).")
    var splitAccounts = false

    @Option(help: ArgumentHelp("The zone of the sources' local times (an IANA name like Europe/Moscow); each format has its own default.", valueName: "TZ"))
    var timezone: String?

    @Option(
        name: .customLong("param"),
        help: ArgumentHelp(
            "Give a format's parameter a value, as NAME=VALUE (XTB: --param account-currency=USD); 'tradeport formats show ID' lists a format's parameters.",
            valueName: "NAME=VALUE"))
    var parameters: [String] = []

    func validate() throws {
        if portfolio.isEmpty { throw ValidationError("--portfolio needs a name") }
    }
}
