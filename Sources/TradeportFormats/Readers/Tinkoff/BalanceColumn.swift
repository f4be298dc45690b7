import TradeportCore
import TradeportXLSX

/// The columns of section 2's balance summary: one row per currency.
enum BalanceColumn: Int, CaseIterable {
    case currency, opening, closing

    static let table: [TableField] = [
        TableField("валюта", required: true),
        // Until 2024 «Входящий остаток на начало периода:»; since 2025 «Входящий остаток».
        TableField("входящийостаток", aliases: ["входящийостатокнаначалопериода:", "входящийостатокнаначалопериода"], required: true),
        TableField("исходящийостаток", aliases: ["исходящийостатокнаконецпериода:", "исходящийостатокнаконецпериода"], required: true)
    ]
}
