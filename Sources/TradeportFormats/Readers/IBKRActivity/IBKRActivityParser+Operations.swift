import TradeportCore

/// Trades and cash transactions, mapped as the Flex readers map the same things (`ibkr-confirms`,
/// `ibkr-cash`): quantity and amount without their signs, the side by Quantity's sign, the
/// commission a broker fee, the cash type by the sign of Amount.
extension IBKRActivityParser {
    /// A Trades Data line: an `Order` (the default statement's line per order) or a `Trade` (an
    /// execution, in custom statements, under its Order) becomes a trade; a block with Trade lines
    /// reads those and skips its Orders, so that an order is never read twice. `ClosedLot` lines
    /// are the lots the trade above closed.
    mutating func tradeRecord(_ line: IBKRActivityLine, _ layout: ActivityLayout, _ location: SourceLocation) -> SourceRecord {
        var values = ActivityValues(fields: line.fields, layout: layout)
        guard let discriminator = values.text(.discriminator) else { return reject(line, location, values.errors) }
        switch discriminator {
        case "ClosedLot", "Lot":
            return skip(location, "a lot the trade above closed (its opening date and cost), not a trade")
        case "Order":
            if let block = tradeBlock, statement.executionBlocks.contains(block) {
                return skip(location, "an order whose executions are the Trade lines of its block, each read as a trade")
            }
        case "Trade":
            break
        default:
            values.fail(
                layout.index(.discriminator), .discriminator,
                "'\(discriminator)' is not a kind of Trades line tradeport knows; expected Order, Trade or ClosedLot")
            return reject(line, location, values.errors)
        }
        guard let categoryText = values.text(.assetCategory) else { return reject(line, location, values.errors) }
        guard let category = ActivityAssetCategory(categoryText) else {
            values.fail(
                layout.index(.assetCategory), .assetCategory,
                "asset category '\(categoryText)' is not read; expected Stocks, Equity and Index Options or Forex")
            return reject(line, location, values.errors)
        }
        let time = values.time(.dateTime, &converter)
        let symbol = values.text(.symbol)
        let quote = values.asset(.currency)
        let quantity = values.decimal(.quantity)
        let price = values.decimal(.tradePrice)
        let proceeds = values.decimal(.proceeds)

        // Forex charges its commission in the currency its column names (`Comm in EUR`); the
        // other categories in the line's Currency (`Comm/Fee`).
        var commission: ExactDecimal?
        var commissionIndex = layout.index(.commission)
        var feeCurrency = quote
        if category == .forex, let named = layout.commissionInCurrency {
            commissionIndex = named.index
            commission = values.decimal(at: named.index, .commission, required: false)
            feeCurrency = AssetCode(named.currency) ?? statement.baseCurrency
            if feeCurrency == nil {
                values.fail(named.index, .commission, "'\(layout.names[named.index])' names no currency; expected a name like Comm in EUR")
            }
        } else {
            commission = values.decimal(.commission, required: false)
        }

        var side: TradeSide?
        if let quantity {
            if quantity.isZero {
                values.fail(layout.index(.quantity), .quantity, "'0' moves nothing; expected a quantity other than 0 (+ bought, - sold)")
            } else {
                side = quantity.isNegative ? .sell : .buy
            }
        }
        if let price, price.isNegative {
            values.fail(layout.index(.tradePrice), .tradePrice, "'\(price)' is negative; expected a price of 0 or more")
        }

        var base: AssetCode?
        var instrument: ActivityInstrument?
        var multiplier = ExactDecimal(1)
        if let symbol {
            base = statement.asset(symbol: symbol, category: category)
            if base == nil {
                values.fail(
                    layout.index(.symbol), .symbol,
                    "'\(symbol)' names no asset (\(AssetCode.rule)); expected a symbol, an option like TLRY 20AUG21 18.0 C or a pair like EUR.USD")
            }
            if category != .forex { instrument = statement.instruments[symbol] }
            if category == .options {
                // T. Price is per share: the contract's price is that times the multiplier.
                if let m = instrument?.multiplier {
                    multiplier = m
                } else {
                    values.fail(
                        layout.index(.symbol), .symbol,
                        "option '\(symbol)' has no Multiplier in Financial Instrument Information; expected a line there that gives it")
                }
            } else if let m = instrument?.multiplier {
                multiplier = m
            }
        }
        let contractPrice = price.flatMap { $0.multiplied(by: multiplier) }
        if let price, contractPrice == nil {
            values.fail(layout.index(.tradePrice), .tradePrice, "'\(price)' times the multiplier \(multiplier) is beyond 38 digits")
        }

        var fees: [TradeFee] = []
        if let commission, let feeCurrency {
            if commission.isNegative {
                fees.append(TradeFee(amount: commission.negated, currency: feeCurrency, kind: .broker))
            } else if commission.isPositive {
                values.fail(commissionIndex, .commission, "'\(commission)' is a rebate, which is not a fee; expected 0 or a negative commission")
            }
        }

        guard values.errors.isEmpty, let time, let side, let base, let quote, let quantity, let contractPrice, let proceeds else {
            return reject(line, location, values.errors)
        }
        let trade = Trade(
            externalId: nil, time: time, side: side, base: base, quote: quote, quantity: quantity.absoluteValue, price: contractPrice,
            amount: proceeds.absoluteValue, fees: fees, isin: instrument?.isin, name: instrument?.name,
            venue: layout.value(.exchange, in: line.fields), account: layout.value(.account, in: line.fields), source: location)
        return .operation(.trade(trade))
    }

    /// A Data line of a cash section: signed Amount in Currency on Date (Settle Date for
    /// deposits), midnight of the statement's zone.
    mutating func cashRecord(_ kind: ActivityCashKind, _ line: IBKRActivityLine, _ layout: ActivityLayout, _ location: SourceLocation) -> SourceRecord {
        var values = ActivityValues(fields: line.fields, layout: layout)
        let asset = values.asset(.currency)
        let time = values.time(layout.index(.settleDate) != nil ? .settleDate : .date, &converter)
        let description = values.text(.description, required: false)
        let amount = values.decimal(.amount)
        if let amount, amount.isZero {
            values.fail(layout.index(.amount), .amount, "'0' moves no money; expected an amount other than 0")
        }
        guard values.errors.isEmpty, let asset, let time, let amount else { return reject(line, location, values.errors) }
        let incoming = amount.isPositive
        // The security a dividend or a tax is for: the ISIN the description names, else its symbol.
        let security = description.flatMap { ActivityValues.isin(inDescription: $0) ?? ActivityValues.symbol(inDescription: $0) }
        let type: CashTransactionType
        var about: String?
        switch kind {
        case .depositsWithdrawals:
            type = incoming ? .deposit : .withdrawal
        case .dividends:
            // A negative line is a reversal; a payment in lieu is a dividend.
            type = incoming ? .dividend : .dividendCharge
            about = security
        case .withholdingTax:
            type = incoming ? .taxRefund : .tax
            about = security
        case .fees:
            type = incoming ? .feeRefund : .fee
        case .interest:
            if let description, description.contains("Bond Interest") {
                type = incoming ? .coupon : .otherCharge
                about = security
            } else {
                // Debit interest is a charge, as ibkr-cash reads Broker Interest Paid.
                type = incoming ? .interest : .otherCharge
            }
        }
        let transaction = CashTransaction(
            externalId: nil, time: time, type: type, asset: asset, amount: amount.absoluteValue, security: about, note: description,
            account: layout.value(.account, in: line.fields), source: location)
        return .operation(.transaction(transaction))
    }
}
