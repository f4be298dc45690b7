#!/usr/bin/env python3
"""An independent reading of the real exports in ../shared/realworld: each file's raw rows read
with Python's csv module and exact decimals, by what the broker's columns say, with no part of
tradeport's specs. Prints {"totals": {format: {asset: net change}}, "rows": {format: [reading]}}
as JSON, which RealWorldFormatTests compares with tradeport's own reading. A reading is a few
rows of each file (row numbers 1-based, the header is row 1) read on their own, with the field
names of tradeport's canonical JSON and only the fields the row itself gives:
{"row", "kind": "trade", "side", "base", "quote", "quantity", "amount"?, "price"?, "fees"?},
{"row", "kind": "transaction", "type", "asset", "amount", "fee"?} or
{"row", "kind": "movement", "direction", "asset", "quantity", "reason"?}; a trade's amount is
before fees, and a reading spread over several rows carries the first one's number.
Usage: independent.py REALWORLD_DIR"""
import csv, json, re, sys
from decimal import Decimal as D

root = sys.argv[1]


def rows(path, delimiter=","):
    with open(f"{root}/{path}", encoding="utf-8-sig", newline="") as f:
        return list(csv.reader(f, delimiter=delimiter))


def numbered(path, delimiter=","):
    """The file's rows by their number: the header is row 1."""
    return dict(enumerate(rows(path, delimiter), start=1))


def add(totals, asset, value):
    totals[asset] = totals.get(asset, D(0)) + value


def plain(d):
    """A decimal as plain digits, without trailing zeros or an exponent: 100, 0.00003605."""
    d = D(d)
    return "0" if d == 0 else format(d.normalize(), "f")


def trade(row, side, base, quote, quantity, amount=None, price=None, fees=None):
    r = {"row": row, "kind": "trade", "side": side, "base": base, "quote": quote, "quantity": plain(quantity)}
    if amount is not None:
        r["amount"] = plain(amount)
    if price is not None:
        r["price"] = plain(price)
    if fees:
        r["fees"] = [{"amount": plain(a), "currency": c} for c, a in fees]
    return r


def transaction(row, type, asset, amount, fee=None):
    r = {"row": row, "kind": "transaction", "type": type, "asset": asset, "amount": plain(amount)}
    if fee:
        r["fee"] = {"amount": plain(fee[1]), "currency": fee[0]}
    return r


def movement(row, direction, asset, quantity, reason=None):
    r = {"row": row, "kind": "movement", "direction": direction, "asset": asset, "quantity": plain(quantity)}
    if reason:
        r["reason"] = reason
    return r


def degiro():
    # Money: Mutatie's currency moves by the unnamed column after it; an Overboeking row has no
    # amount there, and moves the amount in its text out (van) or in (naar). Securities: the
    # quantity of a Koop/Verkoop (any language) in the description, by ISIN.
    t = {}
    for r in rows("brokers/degiro-export.csv")[1:]:
        if not r[0]:
            continue  # the wrapped rest of an order id
        if r[8]:
            add(t, r[7], D(r[8].replace(",", ".")))
        else:
            m = re.match(r"^Overboeking (van|naar) .* (\d+,\d+) ([A-Z]{3})$", r[5])
            if m:
                add(t, m.group(3), D(m.group(2).replace(",", ".")) * (1 if m.group(1) == "naar" else -1))
        m = re.match(r"^(?:[\w ]+: )?(Koop|Verkoop|Compra|Venda|Achat|Vente|Buy|Sell) (\d[\d ]*(?:,\d+)?)(?: |@)", r[5])
        if m and r[4]:
            q = D(m.group(2).replace(" ", "").replace(",", "."))
            add(t, r[4], q if m.group(1) in ("Koop", "Compra", "Achat", "Buy") else -q)
    return t


def etoro():
    # USD, the account's currency: Amount in or out by Type; units by position. A Withdrawal
    # Conversion Fee whose Realized Equity Change is 0.00 is inside its Withdraw Request.
    def num(s):
        s = s.strip()
        neg = s.startswith("(")
        s = s.strip("()").strip()
        s = s.replace(" ", "").replace(",", ".") if re.match(r"^-?[\d ]+,\d+$", s) else s.replace(",", "")
        return -D(s) if neg else D(s)

    t = {}
    for r in rows("brokers/etoro-export.csv")[1:]:
        kind, details, amount = r[1], r[2], num(r[3])
        if kind == "Open Position":
            add(t, "USD", -amount)
            add(t, details.split("/")[0], D(r[4]))
        elif kind == "Position closed":
            add(t, "USD", amount)
            add(t, details.split("/")[0], -D(r[4]))
        elif kind == "Withdrawal Conversion Fee" and num(r[5]) == 0:
            pass
        else:
            add(t, "USD", amount)
    return t


def revolut():
    # Total Amount in Currency: what moved (buys out, the rest as signed); shares by ticker.
    def money(s):
        return D(s.replace("$", "").replace("€", "").replace("£", "").replace(",", "."))

    t = {}
    for r in rows("brokers/revolut-invest-export.csv")[1:]:
        kind, ticker, qty, total, cur = r[2], r[1], r[3], money(r[5]), r[6]
        q = D(qty.replace(",", ".")) if qty else D(0)
        if kind.startswith("BUY"):
            add(t, cur, -total)
            add(t, ticker, q)
        elif kind.startswith("SELL"):
            add(t, cur, total)
            add(t, ticker, -q)
        elif kind == "STOCK SPLIT":
            add(t, ticker, q)
        elif kind.startswith("TRANSFER FROM REVOLUT") and total == 0:
            pass  # shares moved between Revolut's entities
        else:
            add(t, cur, total)
    return t


def trading212():
    # Total in Currency (Total) is what moved in the account's currency; shares by ticker. Rows
    # of the 2025 column order (Notes and ID after Name: an EOF id in the 7th cell) move shares
    # only here: a distribution or a split's new shares in, a transfer out or a split's old out.
    t = {}
    for r in rows("brokers/trading212-export.csv")[1:]:
        action = r[0]
        if r[6].startswith("EOF"):
            shares = D(r[7])
            add(t, r[3], shares if action in ("Stock distribution", "Stock split open") else -shares)
            continue
        total = D(r[11]) if r[11] else D(0)
        if "buy" in action:
            add(t, r[12], -total)
            add(t, r[3], D(r[5]))
        elif "sell" in action:
            add(t, r[12], total)
            add(t, r[3], -D(r[5]))
        else:
            add(t, r[12], total)
    return t


def xtb():
    # Every Amount, in the account's currency (EUR here); shares from the comment: OPEN BUY n in,
    # CLOSE BUY n out. A row repeated whole is one row; a Swap of 0 moved nothing; row 43's time
    # (010.09.2024) is no date, and the row is not read.
    t = {}
    seen = set()
    for i, r in enumerate(rows("brokers/xtb-export.csv", ";")[1:], start=2):
        key = tuple(r)
        if key in seen:
            continue
        seen.add(key)
        if not re.match(r"^\d\d\.\d\d\.\d{4} ", r[2]):
            continue
        add(t, "EUR", D(r[5]))
        m = re.match(r"^(OPEN|CLOSE) (?:BUY|SELL) ([0-9.]+)(?:/[0-9.]+)? @ ", r[4])
        if m:
            code = re.match(r"^([A-Za-z0-9]+)", r[3]).group(1)
            add(t, code, D(m.group(2)) if m.group(1) == "OPEN" else -D(m.group(2)))
    return t


def coinbasepro():
    # Every row's amount in its unit.
    t = {}
    for r in rows("crypto/coinbasepro.csv")[1:]:
        add(t, r[5], D(r[3]))
    return t


def kraken_ledger():
    # Every row moves its asset by amount - fee (Kraken's codes: XXBT is BTC, ZEUR EUR, XETH ETH).
    names = {"XXBT": "BTC", "ZEUR": "EUR", "XETH": "ETH", "XBT": "BTC"}
    t = {}
    for r in rows("crypto/kraken_ledger.csv")[1:]:
        add(t, names.get(r[7], r[7]), D(r[9]) - D(r[10] or "0"))
    return t


def kraken_trades():
    # A buy moves base by +vol and quote by -(cost + fee); a sell base by -vol, quote by cost - fee.
    # Kraken's pairs: XXBTZEUR is BTC/EUR, XETHZEUR ETH/EUR, DOTUSD DOT/USD.
    pairs = {"XXBTZEUR": ("BTC", "EUR"), "XETHZEUR": ("ETH", "EUR"), "DOTUSD": ("DOT", "USD")}
    t = {}
    for r in rows("crypto/kraken_trades.csv")[1:]:
        base, quote = pairs[r[2]]
        cost, fee, vol = D(r[9]), D(r[10]), D(r[11])
        if r[6] == "buy":
            add(t, base, vol)
            add(t, quote, -cost - fee)
        else:
            add(t, base, -vol)
            add(t, quote, cost - fee)
    return t


def ibkr():
    # The ISIN (or, for a currency deal, the commission's currency) moves by Quantity (signed),
    # CurrencyPrimary by -TradeMoney (signed), the commission's currency by IBCommission (< 0).
    t = {}
    for r in rows("brokers/ibkr-trades-export.csv")[1:]:
        add(t, r[2] or r[8], D(r[3]))
        add(t, r[6], -D(r[5]))
        add(t, r[8], D(r[7]))
    return t


def binance():
    # Change is what the row did to Coin's balance in the Account named: the net change of a
    # coin is the sum of its Changes, trades and transfers between Binance's accounts alike.
    # Rows 5, 6 and 42 are the file's own test rows (no time; no coin; operation 'ABC', "to test
    # non-existent row type"), nothing Binance wrote, and are not read.
    t = {}
    for r in rows("crypto/binance_history.csv")[1:]:
        time, op, coin, change = r[1], r[3], r[4], r[5]
        if not time or not coin or op == "ABC":
            continue
        add(t, coin, D(change))
    return t


def coinbase_money(s):
    # Coinbase's money cells: €1,234.56, -€597.49846, $70.00.
    neg = s.startswith("-")
    v = D(s.lstrip("-").lstrip("€$£").replace(",", ""))
    return -v if neg else v


def coinbase():
    # Quantity Transacted of Asset comes in (Buy, Receive, Staking Income) or goes out (Sell,
    # Send, Convert); a Buy pays its Total (fees included) in Price Currency, a Sell gets it; a
    # Convert gets the coin its Notes name ("Converted a X to b Y"). An ID is one transaction: a
    # second row with the same ID (row 9, row 8 again in USD where every other row is in EUR) is
    # not another.
    t, seen = {}, set()
    for r in rows("crypto/coinbase-export.csv")[1:]:
        if r[0] in seen:
            continue
        seen.add(r[0])
        kind, asset, q, cur = r[2], r[3], abs(D(r[4])), r[5]
        if kind in ("Buy", "Receive", "Staking Income", "Rewards Income", "Learning Reward"):
            add(t, asset, q)
        else:
            add(t, asset, -q)
        if kind == "Buy":
            add(t, cur, -coinbase_money(r[8]))
        elif kind == "Sell":
            add(t, cur, coinbase_money(r[8]))
        elif kind == "Convert":
            m = re.match(r"^Converted [\d.]+ \w+ to ([\d.]+) (\w+)$", r[10])
            add(t, m.group(2), D(m.group(1)))
    return t


# Crypto.com App kinds that change no holding: money between the App wallet and Earn or a card
# stake (the user's all along; row 30's Earn Withdrawal even carries a minus, so it is no wallet
# credit), the parts of an MCO/CRO swap whose 'Overall Swap' rows give their sum (rows 20-23: 50 +
# 0.00402069 MCO = 50.00402069, 1382.195 + 0.111147552291 CRO = 1382.306147552291, row 17-18), the
# CRO Stake Rebate (row 19: 1382.195, the very stake the swap made, 50 MCO x 27.6439, handed back
# from the stake to the wallet an hour later: counting it would count that CRO twice), and the
# Early Swap Bonus (row 16: -276.46122951 = 20% of the 1382.306147552291 swapped, the bonus
# Crypto.com paid as a stake on its Exchange, never credited to the App: nothing left the App).
CRYPTOCOM_HELD = {"crypto_earn_program_created", "crypto_earn_program_withdrawn", "lockup_lock",
                  "lockup_swap_debited", "lockup_swap_credited", "crypto_wallet_swap_debited",
                  "crypto_wallet_swap_credited", "lockup_swap_rebate", "dynamic_coin_swap_bonus_exchange_deposit"}


def cryptocom():
    # Amount is what the row did to Currency in the App (signed); a row with another To Currency
    # is an exchange that also brings To Amount of it. A crypto_purchase ("Buy ETH") is paid with
    # Native Amount of Native Currency. A limit order's purchase_lock/unlock only reserve or free
    # cash; its purchase_commit is the purchase. Kinds in CRYPTOCOM_HELD change no holding.
    t = {}
    for r in rows("crypto/cryptocom_trades_list.csv")[1:]:
        cur, amount, to, to_amount, native, native_amount, kind = r[2], D(r[3]), r[4], r[5], r[6], r[7], r[9]
        if kind in CRYPTOCOM_HELD or kind.endswith(("purchase_lock", "purchase_unlock")):
            continue
        add(t, cur, amount)
        if to and to != cur:
            add(t, to, D(to_amount))
        if kind == "crypto_purchase":
            add(t, native, -D(native_amount))
    return t


def schwab_number(s):
    # $1,259.59, -$694.48, "500,135", -877; an empty cell is none.
    if not s:
        return None
    neg = s.startswith("-")
    v = D(s.lstrip("-").lstrip("$").replace(",", ""))
    return -v if neg else v


def schwab():
    # Amount is the cash the row moved, in USD; a Buy or Reinvest Shares adds Quantity of Symbol, a
    # Sell takes it away, and any other row with a Quantity (corporate actions, journaled shares)
    # gives it signed. The last line, "Transactions Total", is a total and no transaction.
    t = {}
    for r in rows("brokers/schwab-export.csv")[1:]:
        if r[0] == "Transactions Total":
            continue
        action, symbol, q, amount = r[1], r[2], schwab_number(r[4]), schwab_number(r[7])
        if amount is not None:
            add(t, "USD", amount)
        if q is not None:
            add(t, symbol, -q if action == "Sell" else q)
    return t


# Row readings: a few rows of every file, each read from its own cells (and its partners').


def degiro_rows():
    # Koop/Verkoop n @ p CUR: a trade of n of the ISIN at p, for the Mutatie (-/+); Valuta
    # Creditering/Debitering of one order are a currency deal: the credit bought for the debit;
    # Dividend(belasting), kosten, iDEAL Deposit: money by the Mutatie's sign; STOCK DIVIDEND:
    # shares in for nothing.
    f = numbered("brokers/degiro-export.csv")
    nl = lambda s: D(s.replace(",", "."))
    out = []
    for n in (22, 29):  # "Koop 1 @ 33,9 USD", "Verkoop 1 @ 63,97 USD"
        r = f[n]
        m = re.match(r"^(Koop|Verkoop) (\d+) @ ([\d,]+) ([A-Z]{3})$", r[5])
        out.append(trade(n, "buy" if m.group(1) == "Koop" else "sell", r[4], m.group(4), D(m.group(2)),
                         amount=abs(nl(r[8])), price=nl(m.group(3))))
    credit, debit = f[18], f[20]  # Valuta Creditering 33,90 USD / Valuta Debitering -31,91 EUR, one order
    out.append(trade(18, "buy", credit[7], debit[7], nl(credit[8]), amount=-nl(debit[8])))
    out.append(transaction(4, "deposit", f[4][7], nl(f[4][8])))  # iDEAL Deposit
    out.append(transaction(10, "dividend", f[10][7], nl(f[10][8])))
    out.append(transaction(11, "tax", f[11][7], -nl(f[11][8])))  # Dividendbelasting
    out.append(transaction(21, "fee", f[21][7], -nl(f[21][8])))  # Transactiekosten
    m = re.match(r"^STOCK DIVIDEND: Koop (\d+) @ 0 EUR$", f[65][5])
    out.append(movement(65, "in", f[65][4], D(m.group(1))))
    return out


def etoro_rows():
    # Open Position: Units bought for Amount (USD); Position closed: Units sold for Amount; Dividend,
    # Interest Payment, Withdraw Request, Overnight fee, SDRT (UK stamp duty reserve tax): money.
    f = numbered("brokers/etoro-export.csv")
    out = []
    for n, side in ((13, "buy"), (19, "sell")):
        r = f[n]
        out.append(trade(n, side, r[2].split("/")[0], "USD", D(r[4]), amount=D(r[3])))
    out.append(transaction(3, "dividend", "USD", D(f[3][3])))
    out.append(transaction(2, "interest", "USD", D(f[2][3])))
    out.append(transaction(8, "withdrawal", "USD", -D(f[8][3])))
    out.append(transaction(24, "fee", "USD", D(f[24][3].strip().strip("()").replace(",", "."))))  # (0,10)
    out.append(transaction(29, "tax", "USD", D(f[29][3].strip("()"))))  # SDRT (6.97)
    return out


def revolut_rows():
    # BUY/SELL: Quantity at Price per share; Total Amount is what moved (a sell's is after its fee:
    # row 5's 0.1998348 x 402.13 = 80.36, 80.34 paid out). CASH TOP-UP/WITHDRAWAL, DIVIDEND, CUSTODY
    # FEE: money; STOCK SPLIT: the new shares.
    f = numbered("brokers/revolut-invest-export.csv")
    money = lambda s: D(s.lstrip("-").lstrip("$€£").replace(",", "."))
    num = lambda s: D(s.replace(",", "."))
    out = [trade(4, "buy", f[4][1], f[4][6], num(f[4][3]), amount=money(f[4][5]), price=money(f[4][4]))]
    r = f[5]
    gross = (num(r[3]) * money(r[4])).quantize(D("0.01"))
    out.append(trade(5, "sell", r[1], r[6], num(r[3]), amount=gross, price=money(r[4]),
                     fees=[(r[6], gross - money(r[5]))]))
    out.append(trade(13, "buy", f[13][1], f[13][6], num(f[13][3]), amount=money(f[13][5]), price=money(f[13][4])))
    out.append(transaction(3, "deposit", f[3][6], money(f[3][5])))
    out.append(transaction(2, "withdrawal", f[2][6], money(f[2][5])))
    out.append(transaction(6, "dividend", f[6][6], money(f[6][5])))
    out.append(transaction(7, "fee", f[7][6], money(f[7][5])))
    out.append(movement(9, "in", f[9][1], num(f[9][3]), "split"))
    return out


def trading212_rows():
    # Market buy/sell: No. of shares of Ticker for Total in Currency (Total); Deposit, Dividend,
    # Interest on cash: Total. Rows of the 2025 column order move shares only (7th cell an EOF id,
    # shares in the 8th): a transfer out, a split's old shares out and new ones in.
    f = numbered("brokers/trading212-export.csv")
    out = []
    for n, side in ((3, "buy"), (6, "sell")):
        r = f[n]
        out.append(trade(n, side, r[3], r[12], D(r[5]), amount=D(r[11])))
    out.append(transaction(2, "deposit", f[2][12], D(f[2][11])))
    out.append(transaction(7, "dividend", f[7][12], D(f[7][11])))
    out.append(transaction(10, "interest", f[10][12], D(f[10][11])))
    out.append(movement(12, "out", f[12][3], D(f[12][7]), "transfer"))
    out.append(movement(13, "out", f[13][3], D(f[13][7]), "split"))
    out.append(movement(14, "in", f[14][3], D(f[14][7]), "split"))
    return out


def xtb_rows():
    # OPEN BUY n @ p: n shares bought, CLOSE BUY n @ p: sold, for |Amount| in EUR; p is in the
    # instrument's currency (row 18's 122.34 is USD: no EUR price). Deposit, Withdrawal, Dividend,
    # Withholding tax (a positive one is tax given back): Amount.
    f = numbered("brokers/xtb-export.csv", ";")
    out = []
    for n in (2, 10, 18):
        r = f[n]
        m = re.match(r"^(OPEN|CLOSE) BUY ([0-9.]+)(?:/[0-9.]+)? @ ([0-9.]+)$", r[4])
        out.append(trade(n, "buy" if m.group(1) == "OPEN" else "sell", r[3].split(".")[0], "EUR", D(m.group(2)),
                         amount=abs(D(r[5])), price=D(m.group(3)) if r[3].endswith(".DE") else None))
    out.append(transaction(5, "deposit", "EUR", D(f[5][5])))
    out.append(transaction(20, "withdrawal", "EUR", -D(f[20][5])))
    out.append(transaction(12, "dividend", "EUR", D(f[12][5])))
    out.append(transaction(21, "tax", "EUR", -D(f[21][5])))
    out.append(transaction(46, "tax-refund", "EUR", D(f[46][5])))
    return out


def coinbasepro_rows():
    # deposit/withdrawal: Amount of the unit. The match rows of one Trade id are one trade: the unit
    # that came in was bought for the one that went out; its fee row is the fee.
    f = numbered("crypto/coinbasepro.csv")
    out = []
    for n in (3, 20):
        group = [r for r in f.values() if r[7] == f[n][7]]
        got = next(r for r in group if r[1] == "match" and D(r[3]) > 0)
        paid = next(r for r in group if r[1] == "match" and D(r[3]) < 0)
        fee = next(r for r in group if r[1] == "fee")
        out.append(trade(n, "buy", got[5], paid[5], D(got[3]), amount=-D(paid[3]), fees=[(fee[5], -D(fee[3]))]))
    out.append(transaction(2, "deposit", f[2][5], D(f[2][3])))
    out.append(transaction(10, "withdrawal", f[10][5], -D(f[10][3])))
    out.append(transaction(13, "withdrawal", f[13][5], -D(f[13][3])))
    return out


def kraken_ledger_rows():
    # deposit/withdrawal: amount of the asset, its fee apart; staking: a reward (income); a trade's
    # two rows (one refid): spend -x of one asset, trade +y of the other.
    names = {"XXBT": "BTC", "ZEUR": "EUR", "XETH": "ETH"}
    f = numbered("crypto/kraken_ledger.csv")
    a = lambda n: names.get(f[n][7], f[n][7])
    out = [transaction(2, "withdrawal", a(2), -D(f[2][9]), fee=(a(2), D(f[2][10]))),
           transaction(4, "withdrawal", a(4), -D(f[4][9]), fee=(a(4), D(f[4][10]))),
           transaction(10, "deposit", a(10), D(f[10][9])),
           transaction(5, "interest", a(5), D(f[5][9])),
           trade(8, "buy", a(9), a(8), D(f[9][9]), amount=-D(f[8][9])),  # spend EUR, trade +BTC
           trade(6, "sell", a(6), a(7), -D(f[6][9]), amount=D(f[7][9]))]  # trade -BTC, receive EUR
    return out


def kraken_trades_rows():
    # type buy/sell of vol at price, for cost, fee in the quote.
    pairs = {"XXBTZEUR": ("BTC", "EUR"), "XETHZEUR": ("ETH", "EUR"), "DOTUSD": ("DOT", "USD")}
    f = numbered("crypto/kraken_trades.csv")
    out = []
    for n in (2, 3, 4, 5, 6):
        r = f[n]
        base, quote = pairs[r[2]]
        out.append(trade(n, r[6], base, quote, D(r[11]), amount=D(r[9]), price=D(r[8]), fees=[(quote, D(r[10]))]))
    return out


def ibkr_rows():
    # BUY/SELL Quantity of the ISIN at TradePrice for TradeMoney in CurrencyPrimary, IBCommission in
    # its currency; a row without ISIN is a currency deal: the commission's currency is sold.
    f = numbered("brokers/ibkr-trades-export.csv")
    out = []
    for n in (2, 3, 6, 10, 12):
        r = f[n]
        out.append(trade(n, r[0].lower(), r[2] or r[8], r[6], abs(D(r[3])), amount=abs(D(r[5])), price=D(r[4]),
                         fees=[(r[8], -D(r[7]))]))
    return out


def binance_group(f, n):
    """The exchange a Binance row belongs to: the trade rows of the same second, from row n on:
    the coins that came in (bought), went out (paid), and the Fee rows."""
    trade_ops = ("Buy", "Sell", "Fee", "Transaction Related", "Transaction Buy", "Transaction Spend",
                 "Transaction Sold", "Transaction Revenue", "Transaction Fee", "Binance Convert", "ETH 2.0 Staking")
    got, paid, fees = {}, {}, {}
    for m in range(n, len(f) + 1):
        r = f[m]
        if r[1] != f[n][1]:
            break
        if r[3] not in trade_ops:
            continue
        c = D(r[5])
        add(fees if r[3].endswith("Fee") else got if c > 0 else paid, r[4], abs(c))
    return got, paid, fees


def binance_rows():
    # A trade is the rows of one second: the coin whose Change is up was bought for the one that
    # is down, Fee rows its fees. Deposit, Fiat Deposit, Withdraw, ...Interest: money by Change;
    # a Transfer Between ... Accounts moves the coin between two of the user's accounts.
    f = numbered("crypto/binance_history.csv")
    out = []
    for n, side in ((2, "buy"), (13, "buy"), (17, "buy"), (25, "sell"), (65, "buy"), (86, "buy")):  # 86: "Sell" EUR, yet ETH bought
        got, paid, fees = binance_group(f, n)
        (g, gq), = got.items()
        (p, pq), = paid.items()
        fees = sorted(fees.items())
        out.append(trade(n, side, g, p, gq, amount=pq, fees=fees) if side == "buy" else
                   trade(n, side, p, g, pq, amount=gq, fees=fees))
    out.append(transaction(3, "deposit", f[3][4], D(f[3][5])))
    out.append(transaction(72, "deposit", f[72][4], D(f[72][5])))
    out.append(transaction(41, "withdrawal", f[41][4], -D(f[41][5])))
    out.append(transaction(16, "interest", f[16][4], D(f[16][5])))
    out.append(movement(51, "in", f[51][4], D(f[51][5]), "transfer"))
    out.append(movement(52, "out", f[52][4], -D(f[52][5]), "transfer"))
    return out


def coinbase_rows():
    # Buy: Quantity for Subtotal, Fees and/or Spread the fee (Subtotal + fee = Total); Convert:
    # Quantity out for the coin in its Notes; Staking Income: income. Rows 4 and 5, in one second,
    # are one relabel: 0.180914809326 ETH2 out ("Send"), the same 0.180914809326 as ETH in
    # ("Receive"), the same EUR value (597.49846) on both: Coinbase turning staked ETH2 back into
    # ETH, nothing sent to or received from anyone.
    f = numbered("crypto/coinbase-export.csv")
    out = [trade(8, "buy", f[8][3], f[8][5], D(f[8][4]), amount=coinbase_money(f[8][7]),
                 fees=[(f[8][5], coinbase_money(f[8][9]))])]
    for n in (6, 7):
        m = re.match(r"^Converted [\d.]+ \w+ to ([\d.]+) (\w+)$", f[n][10])
        out.append(trade(n, "sell", f[n][3], m.group(2), D(f[n][4]), amount=D(m.group(1))))
    out.append(transaction(2, "interest", f[2][3], D(f[2][4])))
    out.append(movement(4, "out", f[4][3], -D(f[4][4]), "conversion"))
    out.append(movement(5, "in", f[5][3], D(f[5][4]), "conversion"))
    return out


def cryptocom_rows():
    # Currency -> To Currency rows (crypto_exchange, viban_purchase, crypto_viban_exchange, a limit
    # order's purchase_commit): |Amount| of Currency paid for To Amount of To Currency; Buy X
    # (crypto_purchase): Amount bought for Native Amount; dust conversions: a coin in or out;
    # Deposit/Withdraw, transfers: the coin in or out; Crypto Earn interest.
    f = numbered("crypto/cryptocom_trades_list.csv")
    out = []
    r = f[25]  # MCO -> ETH: MCO sold for ETH
    out.append(trade(25, "sell", r[2], r[4], -D(r[3]), amount=D(r[5])))
    for n in (32, 45):  # EUR -> BTC, USD -> SOL: BTC, SOL bought
        r = f[n]
        out.append(trade(n, "buy", r[4], r[2], D(r[5]), amount=-D(r[3])))
    out.append(trade(31, "buy", f[31][2], f[31][6], D(f[31][3]), amount=D(f[31][7])))
    out.append(transaction(12, "withdrawal", f[12][2], -D(f[12][3])))
    out.append(transaction(13, "deposit", f[13][2], D(f[13][3])))
    out.append(transaction(24, "interest", f[24][2], D(f[24][3])))
    out.append(movement(2, "in", f[2][2], D(f[2][3]), "conversion"))
    out.append(movement(3, "out", f[3][2], -D(f[3][3]), "conversion"))
    out.append(movement(8, "out", f[8][2], -D(f[8][3]), "transfer"))
    return out


def schwab_rows():
    # Buy/Reinvest Shares: Quantity at Price for -Amount; Sell: Quantity at Price, Amount after
    # Fees & Comm (row 34: 592.199 x 8.46 = 5010.00, less 10.00 = 5000.00); Reinvest Dividend,
    # Credit Interest, Advisor Fee, Foreign Tax Paid, Wire Sent, Cash In Lieu: Amount; share rows
    # without money: Quantity signed.
    f = numbered("brokers/schwab-export.csv")
    n_ = lambda n, i: schwab_number(f[n][i])
    out = [trade(2, "buy", f[2][2], "USD", n_(2, 4), amount=-n_(2, 7), price=n_(2, 5)),
           trade(34, "sell", f[34][2], "USD", n_(34, 4), amount=n_(34, 7) + n_(34, 6), price=n_(34, 5),
                 fees=[("USD", n_(34, 6))]),
           trade(100, "sell", f[100][2], "USD", n_(100, 4), amount=n_(100, 7), price=n_(100, 5)),
           transaction(3, "dividend", "USD", n_(3, 7)),
           transaction(8, "interest", "USD", n_(8, 7)),
           transaction(31, "fee", "USD", -n_(31, 7)),
           transaction(106, "tax", "USD", -n_(106, 7)),
           transaction(101, "withdrawal", "USD", -n_(101, 7)),
           transaction(120, "other-income", "USD", n_(120, 7)),
           movement(62, "out", f[62][2], -n_(62, 4), "transfer"),
           movement(108, "in", f[108][2], n_(108, 4), "split"),
           movement(119, "out", f[119][2], -n_(119, 4), "conversion")]
    return out


readers = [("degiro", degiro, degiro_rows), ("etoro", etoro, etoro_rows), ("revolut-invest", revolut, revolut_rows),
           ("trading212", trading212, trading212_rows), ("xtb", xtb, xtb_rows), ("schwab", schwab, schwab_rows),
           ("coinbasepro", coinbasepro, coinbasepro_rows), ("kraken-ledger", kraken_ledger, kraken_ledger_rows),
           ("kraken-trades", kraken_trades, kraken_trades_rows), ("ibkr-trades", ibkr, ibkr_rows),
           ("binance", binance, binance_rows), ("coinbase", coinbase, coinbase_rows),
           ("cryptocom", cryptocom, cryptocom_rows)]
out = {"totals": {}, "rows": {}}
for name, totals, readings in readers:
    out["totals"][name] = {k: plain(v) for k, v in totals().items() if v != 0}
    out["rows"][name] = readings()
print(json.dumps(out, indent=1, sort_keys=True))
