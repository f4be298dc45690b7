#!/usr/bin/env python3
"""Print what a Beancount ledger or an hledger journal holds per account and asset.

usage: ledger-balances.py beancount|hledger FILE

One line per account and asset with a balance other than zero:
ACCOUNT<TAB>ASSET<TAB>UNITS. Beancount commodities are given back as the asset
code tradeport read (their `tradeport-asset` metadata). Used by the tests that
hold the ledgers' balances equal to tradeport's own.
"""
import csv
import io
import subprocess
import sys
from collections import defaultdict
from decimal import Decimal


def beancount(path):
    from beancount import loader
    from beancount.core import data

    entries, errors, _ = loader.load_file(path)
    if errors:
        for e in errors:
            print(f"error: {e.message}", file=sys.stderr)
        sys.exit(1)
    asset = {}
    for e in entries:
        if isinstance(e, data.Commodity):
            asset[e.currency] = e.meta.get("tradeport-asset", e.currency)
    sums = defaultdict(Decimal)
    for e in entries:
        if isinstance(e, data.Transaction):
            for p in e.postings:
                sums[(p.account, asset.get(p.units.currency, p.units.currency))] += p.units.number
    return sums


def hledger(path):
    out = subprocess.run(["hledger", "-f", path, "balance", "-O", "csv", "--layout=bare", "-N", "--flat"],
                         check=True, capture_output=True, text=True).stdout
    sums = defaultdict(Decimal)
    for row in list(csv.reader(io.StringIO(out)))[1:]:
        if row and row[0] != "total":
            sums[(row[0], row[1])] += Decimal(row[2].replace(",", ""))
    return sums


def main(argv):
    if len(argv) != 3 or argv[1] not in ("beancount", "hledger"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    sums = beancount(argv[2]) if argv[1] == "beancount" else hledger(argv[2])
    for (account, code), units in sorted(sums.items()):
        if units != 0:
            print(f"{account}\t{code}\t{units.normalize():f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
