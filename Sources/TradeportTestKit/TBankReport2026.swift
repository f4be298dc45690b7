/// A small T-Bank broker report in the 2026 layout, built cell by cell for tests: section 2 prints
/// its balance summary, a page footer, and then the operations **with no currency label and no
/// header row**, in columns of their own (not the summary's); a ticker of SPB Exchange ending in
/// `@`; a security section 3.1 prints under its ticker and under its ISIN (re-keyed, as in 2022);
/// positions held at the start of the period and sold in it.
///
/// Its figures, worked out by hand (Moscow time, RUB):
/// - deals: buy 100 `TGLD@` at 10 (1000, fee 3), sell 10 SBER at 300 (3000, fee 9), sell 1 HRL at
///   500 (500, fee 1.5);
/// - section 2: a deposit of 5000, the deals' cash legs (−1000 −3, +3500 −10.5), a DFP/RFP leg of
///   0, a coupon of 50 (a corporate-action payout), a tax of 20: net 7516.5;
/// - RUB opens at 1000 and closes at 8516.5 (= 1000 + 7516.5); USD 5 → 5, EUR 0.02 → 0.02;
/// - 3.1: `TGLD@` 0 + 100 = 100; SBER 10 − 10 = 0; HRL 7 − 7 = 0 and `US4404521001` 0 + 6 = 6
///   (one security: 7 − 1 sold = 6); the bond `SU26238RMFS4` 10 → 10.
public enum TBankReport2026 {
    /// The summary's columns (Валюта, Входящий остаток, Исходящий остаток, Плановый исходящий
    /// остаток, Задолженность клиента) and the operations' (date, time, settled, operation,
    /// credit, debit, note): not the same.
    public static let summaryColumns = [0, 10, 20, 32, 49]
    public static let operationColumns = [0, 10, 22, 35, 49, 62, 72]
    static let dealColumns = [0, 4, 8, 12, 16, 20, 24, 28, 34, 40, 44, 48, 52, 56, 60, 64, 68, 72, 76]
    static let dealHeaders = [
        "Номер сделки", "Номер поручения", "Дата заключения", "Время", "Торговая площадка", "Режим торгов",
        "Вид сделки", "Наименование актива", "Код актива", "Цена за единицу", "Валюта цены", "Количество",
        "Сумма (без НКД)", "НКД", "Сумма сделки", "Валюта расчетов", "Комиссия брокера",
        "Валюта комиссии брокера", "Дата расчетов план/факт"
    ]
    static let positionColumns = [0, 13, 20, 26, 38, 48, 58, 64]
    static let securityColumns = [0, 16, 22, 40, 50]

    /// A row of values placed in `columns` (nil: no cell).
    public static func row(_ columns: [Int], _ values: [Any?]) -> [Int: Any] {
        var r: [Int: Any] = [:]
        for (i, v) in values.enumerated() { if let v { r[columns[i]] = v } }
        return r
    }

    public static func footer(_ page: Int) -> [Int: Any] { [80: "\(page) из ", 84: 47] }

    /// One balance line of the summary.
    public static func balance(_ code: String, _ opening: String, _ closing: String) -> [Int: Any] {
        row(summaryColumns, [code, opening, closing, closing, "0"])
    }

    /// One operation row, in the operations' own columns.
    public static func operation(
        _ date: String?, _ time: String?, _ settled: String?, _ name: String, _ credit: String, _ debit: String,
        note: String? = nil
    ) -> [Int: Any] {
        row(operationColumns, [date, time, settled, name, credit, debit, note])
    }

    public static var title: [[Int: Any]] {
        [
            [0: "Брокер: АО «ТБанк»"], [0: "Дата расчета: 01.04.2026"], [0: "Инвестор: USERNAME"],
            [0: "Отчет о сделках и операциях за период 01.01.2026 - 31.03.2026"]
        ]
    }

    public static var deals: [[Int: Any]] {
        [
            [0: "1.1 Информация о совершенных и исполненных сделках на конец отчетного периода"],
            row(dealColumns, dealHeaders),
            row(
                dealColumns,
                [
                    "201", "9201", "10.01.2026", "11:00:00", "СПБ", "SPBRU", "Покупка", "БПИФ Т-Капитал Золото", "TGLD@", "10", "RUB",
                    "100", "1000", "0", "1000", "RUB", "3", "RUB", "12.01.2026"
                ]),
            row(
                dealColumns,
                [
                    "202", "9202", "12.01.2026", "12:00:00", "ММВБ", "TQBR", "Продажа", "Сбербанк", "SBER", "300", "RUB",
                    "10", "3000", "0", "3000", "RUB", "9", "RUB", "14.01.2026"
                ]),
            row(
                dealColumns,
                [
                    "203", "9203", "12.01.2026", "13:00:00", "СПБ", "SPBRU", "Продажа", "Hormel Foods-ао", "HRL", "500", "RUB",
                    "1", "500", "0", "500", "RUB", "1,5", "RUB", "14.01.2026"
                ]),
            footer(9)
        ]
    }

    /// Section 2's operations, as the 2026 report prints them (a page footer among them).
    public static var operations: [[Int: Any]] {
        [
            operation("05.01.2026", "10:00:00", "05.01.2026", "Пополнение счета", "5000", "0"),
            operation(nil, nil, "12.01.2026", "Покупка/продажа", "0", "1000"),
            operation(nil, nil, "12.01.2026", "Комиссия за сделки", "0", "3"),
            operation(nil, nil, "14.01.2026", "Покупка/продажа", "3500", "0"),
            operation(nil, nil, "14.01.2026", "Комиссия за сделки", "0", "10,5"),
            footer(11),
            operation(nil, nil, "14.01.2026", "DFP/RFP", "0", "0"),
            operation(
                "20.01.2026", "00:00:00", "20.01.2026", "Выплата доходов по корпоративным действиям", "50", "0",
                note:
                    "Тип КД: Выплата дохода по облигациям, Наименование: ОФЗ 26238, ISIN: RU000A1038V6, Референс КД: 1001, Дата фиксации: 19-JAN-26, Количество: 10 шт."
            ),
            operation("31.01.2026", "23:00:00", "31.01.2026", "Налог (по итогу года)", "0", "20")
        ]
    }

    /// Section 2: the summary, a page footer, then `operations` (after a label row `RUB` when
    /// `label` is set).
    public static func cash(label: Bool = false, balances: [[Int: Any]]? = nil, operations: [[Int: Any]]? = nil) -> [[Int: Any]] {
        var rows: [[Int: Any]] = [[0: "2. Операции с денежными средствами"]]
        rows.append(row(summaryColumns, ["Валюта", "Входящий остаток", "Исходящий остаток", "Плановый исходящий остаток", "Задолженность клиента"]))
        rows += balances ?? [balance("RUB", "1000", "8516,5"), balance("USD", "5", "5"), balance("EUR", "0,02", "0,02")]
        rows.append(footer(10))
        if label { rows.append([0: "RUB"]) }
        rows += operations ?? Self.operations
        return rows
    }

    public static var positions: [[Int: Any]] {
        [
            [0: "3.1 Движение по ценным бумагам инвестора"],
            row(
                positionColumns,
                ["Наименование актива", "Код актива", "ISIN", "Место хранения", "Входящий остаток", "Зачисление", "Списание", "Исходящий остаток"]),
            row(positionColumns, ["БПИФ Т-Капитал Золото", "TGLD@", "RU000A101X50", "ТБанк", "0", "100", "0", "100"]),
            row(positionColumns, ["Сбербанк", "SBER", "RU0009029540", "ТБанк", "10", "0", "10", "0"]),
            row(positionColumns, ["Hormel Foods-ао", "HRL", "US4404521001", "ТБанк", "7", "0", "7", "0"]),
            row(positionColumns, ["Hormel Foods-ао", "US4404521001", "US4404521001", "ТБанк", "0", "6", "0", "6"]),
            row(positionColumns, ["ОФЗ 26238", "SU26238RMFS4", "RU000A1038V6", "ТБанк", "10", "0", "0", "10"])
        ]
    }

    public static var securities: [[Int: Any]] {
        [
            [0: "4.1 Информация о ценных бумагах"],
            row(securityColumns, ["Наименование актива", "Код актива", "ISIN", "Номинал", "Валюта номинала"]),
            row(securityColumns, ["БПИФ Т-Капитал Золото", "TGLD@", "RU000A101X50", nil, nil]),
            row(securityColumns, ["Сбербанк", "SBER", "RU0009029540", "3", "RUB"]),
            row(securityColumns, ["Hormel Foods-ао", "US4404521001", "US4404521001", nil, nil]),
            row(securityColumns, ["ОФЗ 26238", "SU26238RMFS4", "RU000A1038V6", "1000", "RUB"]),
            [0: "5. Расшифровка дополнительных кодов используемых в отчете"],
            row([0, 16], ["Код", "Расшифровка"]),
            row([0, 16], ["ВНБ", "Внебиржевая сделка"])
        ]
    }

    /// The whole report.
    public static func report(label: Bool = false) -> [[Int: Any]] {
        title + deals + cash(label: label) + positions + securities
    }

    /// Writes the report to a temporary file and returns its path.
    public static func write(_ rows: [[Int: Any]] = report(), name: String = "tbank-2026.xlsx") throws -> String {
        try TestWorkbook.rows(rows, sheetName: "broker_rep").writeTemporary(name: name)
    }
}
