import TradeportCore
import TradeportCSV

/// DSX's deposits and withdrawals export: 13 columns, no header.
///
/// 1 time · 2 Deposit/Withdraw · 3 currency · 4 amount · 5 commission · 6 from · 7 to ·
/// 8 Complete/Failed/Rejected · 9 blockchain hash · 10 transaction id · 11 (empty) · 12 IP
/// address (not carried over) · 13 address. The sub-account is column 7 for a deposit and
/// column 6 for a withdrawal; the other one is the counterparty.
public struct DSXTransactionsAdapter: FormatAdapter {
    public let id = "dsx-transactions"
    public let summary = "DSX exchange deposits and withdrawals export (headerless ';' CSV, 13 columns, decimal comma, UTC)"

    public init() {}

    public func detect(_ probe: FormatProbe) -> Detection {
        DSX.detect(probe, columns: 13, kinds: ["Deposit", "Withdraw"], kindColumn: 2)
    }

    public func read(_ input: SourceInput, options: ReadOptions, emit: RecordHandler) throws {
        try DSX.readRows(input, options: options, columns: 13, emit: emit) { record, location, check, zone in
            let time = check.time(record, 1, zone: &zone)
            let kind = check.choice(record, 2, "type", ["Deposit", "Withdraw"])
            let asset = check.asset(record, 3, "asset")
            let statusIndex = check.choice(record, 8, "status", ["Complete", "Failed", "Rejected"])
            let status: TransactionStatus? = statusIndex.map { [.complete, .failed, .rejected][$0] }
            // Failed attempts are recorded with 0; only a completed one must have moved something.
            let amount = check.number(record, 4, "amount", status == .complete || status == nil ? .positive : .nonNegative)
            let fee = check.number(record, 5, "fee", .nonNegative)
            let from = check.optionalText(record, 6, "from")
            let to = check.optionalText(record, 7, "to")
            let txHash = check.optionalText(record, 9, "txHash")
            let externalId = check.id(record, 10, "externalId")
            let note = check.optionalText(record, 11, "note")
            let address = check.optionalText(record, 13, "address")
            guard let time, let kind, let asset, let status, let amount, let fee, let externalId else { return nil }
            let deposit = kind == 0
            return .transaction(CashTransaction(
                externalId: externalId, time: time, type: deposit ? .deposit : .withdrawal, asset: asset, amount: amount,
                fee: fee.isZero ? nil : CashFee(amount: fee, currency: asset), status: status, note: note,
                account: deposit ? to : from, counterparty: deposit ? from : to, txHash: txHash, address: address,
                source: location))
        }
    }
}
