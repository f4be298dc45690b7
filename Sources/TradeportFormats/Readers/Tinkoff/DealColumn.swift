import TradeportCore
import TradeportXLSX

/// The columns of the deal tables (sections 1.1 to 1.3), by the header texts of every generation
/// (2020–2026): folded (no whitespace, lower case), with the renames as aliases.
enum DealColumn: Int, CaseIterable {
    case deal, order, date, time, venue, kind, name, code, price, priceCurrency, quantity, amountWithoutInterest,
        accruedInterest, amount, settlementCurrency, brokerFee, brokerFeeCurrency, stampDuty, stampDutyCurrency, settlementDate

    static let table: [TableField] = [
        TableField("номерсделки", required: true),
        TableField("номерпоручения"),
        TableField("датазаключения", required: true),
        TableField("время", required: true),
        TableField("торговаяплощадка"),
        TableField("видсделки", required: true),
        // 2020–2024 «Сокращенное наименование актива» (2023: cut to «Сокращенное наименование »); 2025– «Наименование актива».
        TableField("сокращенноенаименованиеактива", aliases: ["сокращенноенаименование", "наименованиеактива"]),
        TableField("кодактива", required: true),
        TableField("ценазаединицу", required: true),
        TableField("валютацены", required: true),
        TableField("количество", required: true),
        TableField("сумма(безнкд)"),
        TableField("нкд"),
        TableField("суммасделки"),
        TableField("валютарасчетов"),
        TableField("комиссияброкера"),
        TableField("валютакомиссии", aliases: ["валютакомиссииброкера"]),
        // «Комиссия биржи» and «Комиссия клир. центра» are not read: they are part of the broker's
        // fee (section 2 charges «Комиссия за сделки» = the broker fees of the day's deals alone).
        TableField("гербовыйсбор"),
        TableField("валютагербовогосбора"),
        // «Дата расчетов», since 2023 «Дата расчетов план/факт».
        TableField("датарасчетов", aliases: ["датарасчетовплан/факт"])
    ]

    /// The header text as the report prints it, for messages.
    static let printed: [String: String] = [
        "номерсделки": "Номер сделки", "датазаключения": "Дата заключения", "время": "Время", "видсделки": "Вид сделки",
        "кодактива": "Код актива", "ценазаединицу": "Цена за единицу", "валютацены": "Валюта цены",
        "количество": "Количество", "операция": "Операция", "суммазачисления": "Сумма зачисления",
        "суммасписания": "Сумма списания", "валюта": "Валюта",
        "входящийостаток": "Входящий остаток", "исходящийостаток": "Исходящий остаток", "зачисление": "Зачисление", "списание": "Списание"
    ]
}
