#!/usr/bin/env python3
"""An independent reading of the real exports in ../shared/realworld: each file's raw rows read
with Python's csv module and exact decimals, by what the broker's columns say, with no part of
tradeport's specs. Prints {format: {asset: net change}} as JSON, which RealWorldFormatTests
compares with tradeport's own reading. Usage: independent.py REALWORLD_DIR"""
import csv, json, re, sys
from decimal import Decimal as D

root = sys.argv[1]


def rows(path, delimiter=","):
    with open(f"{root}/{path}", encoding="utf-8-sig", newline="") as f:
        return list(csv.reader(f, delimiter=delimiter))


def add(totals, asset, value):
    totals[asset] = totals.get(asset, D(0)) + value


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


out = {}
for name, reader in [("degiro", degiro), ("etoro", etoro), ("revolut-invest", revolut), ("trading212", trading212),
                     ("xtb", xtb), ("coinbasepro", coinbasepro), ("kraken-ledger", kraken_ledger),
                     ("kraken-trades", kraken_trades), ("ibkr-trades", ibkr)]:
    out[name] = {k: format(v.normalize(), "f") for k, v in reader().items() if v != 0}
print(json.dumps(out, indent=1, sort_keys=True))
