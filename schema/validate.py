#!/usr/bin/env python3
"""Validate tradeport output against the tradeport JSON Schema.

usage: validate.py SCHEMA FILE [--jsonl]

Without --jsonl, FILE is one JSON document; with it, every non-empty line
of FILE is validated on its own. Prints "valid: N objects" and exits 0, or
prints each error as "line N: $.json.path: message" (JSON Lines) or
"$.json.path: message" (a document) and exits 1.
"""
import json
import sys

from jsonschema import Draft202012Validator, FormatChecker


def path_of(error):
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)


def main(argv):
    args = [a for a in argv if a != "--jsonl"]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    jsonl = "--jsonl" in argv
    with open(args[0], encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema, format_checker=FormatChecker())
    count, failures = 0, 0
    with open(args[1], encoding="utf-8") as f:
        items = enumerate(f, 1) if jsonl else [(1, f.read())]
        for lineno, text in items:
            if jsonl and not text.strip():
                continue
            count += 1
            try:
                instance = json.loads(text)
            except json.JSONDecodeError as e:
                failures += 1
                print(f"line {e.lineno if not jsonl else lineno}: invalid JSON: {e.msg}")
                continue
            where = f"line {lineno}: " if jsonl else ""
            for error in sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path]):
                failures += 1
                print(f"{where}{path_of(error)}: {error.message}")
    if failures:
        print(f"invalid: {failures} error(s) in {count} objects")
        return 1
    print(f"valid: {count} objects")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
