#!/usr/bin/env python3
"""Drops the `package` declarations from a swift-api-digester dump, in place.

`-dump-sdk` also lists declarations with `package` access (marked "isInternal"): the modules
share them with the command-line target, but a client of the libraries cannot see them, so they
are not part of the public API that api/ records. Usage: api-public-only.py DUMP.json
"""
import json
import sys


def prune(node):
    children = node.get("children")
    if children is not None:
        node["children"] = [prune(child) for child in children if not child.get("isInternal")]
    return node


path = sys.argv[1]
with open(path) as file:
    dump = json.load(file)
with open(path, "w") as file:
    for root in dump.values():
        prune(root)
    json.dump(dump, file, indent=2, sort_keys=False)
    file.write("\n")
