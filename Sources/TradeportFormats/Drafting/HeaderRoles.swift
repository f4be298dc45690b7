/// What a column usually means, by its header: the names exports give their columns, in the
/// languages of the brokers tradeport reads, compared in lower case without spaces, `_`, `-`,
/// `.`, `(…)` and `/`. A column's role is a guess the draft marks as one.
enum HeaderRole: String, CaseIterable, Sendable {
    case time, date, clock, symbol, pair, isin, name, quantity, price, amount, fee, feeCurrency, currency
    case type, side, id, orderId, note, balance

    /// The normalized header names of each role, most specific first (`fee currency` before `fee`,
    /// `currency` before `amount`).
    static let names: [(HeaderRole, [String])] = [
        (.feeCurrency, ["feecurrency", "commissioncurrency", "feeasset", "feecoin", "feeccy"]),
        (
            .fee,
            [
                "fee", "fees", "feescomm", "feescommissions", "commission", "commissions", "comm", "ibcommission", "charges", "charge", "transactionfee",
                "tradingfee",
                "costs", "kosten", "provision", "gebühr", "gebühren", "comisión", "comissão", "frais", "commissione"
            ]
        ),
        (.isin, ["isin", "isincode", "codeisin"]),
        (
            .time,
            [
                "datetime", "timestamp", "dateutc", "timeutc", "utctime", "datetimeutc", "createdat", "tradetime", "executiontime",
                "transactiontime", "dateandtime", "time", "created", "fillstime", "filltime"
            ]
        ),
        (
            .date,
            [
                "date", "tradedate", "transactiondate", "datum", "fecha", "data", "bookingdate", "valuedate", "settlementdate",
                "buchungstag", "valutadatum", "runDate".lowercased(), "dateacquired"
            ]
        ),
        (.clock, ["tijd", "hora", "heure", "ora", "uhrzeit", "zeit"]),
        (.pair, ["pair", "market", "instrumentpair", "tradingpair", "product"]),
        (
            .symbol,
            [
                "symbol", "ticker", "tickersymbol", "instrument", "asset", "coin", "security", "code", "produkt", "produit",
                "producto", "produto", "prodotto", "wertpapier", "stock", "base", "baseasset", "currencypair", "assetid"
            ]
        ),
        (.name, ["name", "securityname", "description", "instrumentname", "companyname", "assetname"]),
        (
            .quantity,
            [
                "quantity", "qty", "shares", "units", "noofshares", "numberofshares", "volume", "vol", "size", "filledqty",
                "executedqty", "quantitytransacted", "anzahl", "aantal", "stück", "cantidad", "quantidade", "quantité", "quantità"
            ]
        ),
        (
            .price,
            [
                "price", "priceshare", "pricepershare", "unitprice", "rate", "executionprice", "avgprice", "averageprice", "kurs",
                "koers", "precio", "preço", "prix", "prezzo", "spotpriceattransaction", "priceattransaction", "tradeprice"
            ]
        ),
        (
            .currency,
            [
                "currency", "ccy", "curr", "currencytotal", "currencyprimary", "accountcurrency", "quotecurrency", "quoteasset",
                "valuta", "währung", "divisa", "moeda", "devise", "spotpricecurrency", "assetcurrency"
            ]
        ),
        (
            .amount,
            [
                "amount", "total", "value", "netamount", "net", "proceeds", "cost", "tradeMoney".lowercased(), "totalamount",
                "mutatie", "change", "betrag", "bedrag", "importe", "montant", "importo", "valor", "subtotal", "nativeamount",
                "amountinusd", "realizedequitychange"
            ]
        ),
        (
            .type,
            [
                "type", "action", "transactiontype", "kind", "operation", "activity", "activitytype", "category", "transactioncode",
                "omschrijving", "buchungsart", "tipo", "typ", "transaction", "operationtype", "txtype"
            ]
        ),
        (.side, ["side", "buysell", "direction", "tradetype"]),
        (.orderId, ["orderid", "ordertxid", "orderno", "ordernumber", "ordreid", "idorden"]),
        (
            .id,
            [
                "id", "txid", "transactionid", "tradeid", "reference", "refid", "ref", "transactionhash", "txhash", "uuid", "fillid",
                "tradeno", "dealid", "identifier"
            ]
        ),
        (.note, ["notes", "note", "details", "comment", "comments", "memo", "remarks", "beschreibung", "descripción", "descrição"]),
        (.balance, ["balance", "saldo", "solde", "runningbalance", "balanceafter"])
    ]

    /// The role a header names, or nil.
    static func of(_ header: String) -> HeaderRole? {
        let key = normalized(header)
        guard !key.isEmpty else { return nil }
        for (role, names) in names where names.contains(key) { return role }
        return nil
    }

    /// Lower case, without spaces, `_`, `-`, `.`, `/`, `#` and a part in parentheses
    /// (`Price / share` → `priceshare`, `Time (UTC)` → `time`… but `Date(UTC)` → `dateutc`).
    static func normalized(_ header: String) -> String {
        var text = header.lowercased()
        if let open = text.firstIndex(of: "("), let close = text[open...].firstIndex(of: ")") {
            let inner = text[text.index(after: open)..<close]
            // `(UTC)` is kept (it says the zone); a currency or unit in parentheses is not.
            text =
                inner == "utc"
                ? text.replacingOccurrences(of: "(", with: "").replacingOccurrences(of: ")", with: "")
                : String(text[..<open] + text[text.index(after: close)...])
        }
        return String(text.unicodeScalars.filter { !" _-./#:&\t".unicodeScalars.contains($0) }.map(Character.init))
    }
}

/// What a value of a type column most likely means: the words brokers use, in their languages.
enum TypeWords {
    /// The canonical meaning of `value` (`buy`, `sell`, or a transaction type), or nil.
    static func meaning(_ value: String) -> String? {
        let v = value.lowercased()
        func has(_ words: [String]) -> Bool { words.contains { v.contains($0) } }
        // Taxes and fees first: "Dividend Tax" is a tax, "Withdrawal Fee" a fee.
        if has(["withholding", "tax", "belasting", "steuer", "impôt", "impuesto", "imposto", "retenção", "retención"]) { return "tax" }
        if has(["fee", "commission", "kosten", "frais", "comisi", "comiss", "gebühr", "charge"]) { return "fee" }
        if has(["dividend", "dividende", "dividendo", "distribution"]) { return "dividend" }
        if has(["interest", "rente", "zins", "intérêt", "interés", "juros"]) { return "interest" }
        if has(["coupon", "kupon"]) { return "coupon" }
        if has(["deposit", "top up", "top-up", "topup", "einzahlung", "storting", "ingreso", "depósito", "dépôt", "funding", "moneylink deposit"]) {
            return "deposit"
        }
        if has(["withdraw", "auszahlung", "opname", "retirada", "retrait", "payout"]) { return "withdrawal" }
        if has(["transfer", "wire", "journal", "überweisung", "overboeking"]) { return "transfer" }
        if has(["sell", "sold", "sale", "verkauf", "verkoop", "venta", "venda", "vente", "vendita"]) { return "sell" }
        if has(["buy", "bought", "purchase", "kauf", "koop", "compra", "achat", "acquisto", "reinvest"]) { return "buy" }
        return nil
    }
}
