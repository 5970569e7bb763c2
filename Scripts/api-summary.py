#!/usr/bin/env python3
"""Prints a module's public API, one declaration a line, from a swift-api-digester -dump-sdk file.

Used by Scripts/api to show what changed between the committed baseline and a fresh dump as a
readable diff. Compiler-synthesised members (Equatable's ==, hashValue, rawValue…) are left out;
conformances are listed on their type's line.

    Scripts/api-summary.py api/PhotoGPS.json
"""

import json
import sys

# Protocols every type conforms to implicitly; listing them would only add noise.
IMPLICIT_CONFORMANCES = {"Copyable", "Escapable", "SendableMetatype", "BitwiseCopyable"}


def type_name(node):
    """The printed name of a type node (TypeNominal, TypeFunc, TypeNameAlias…)."""
    return node.get("printedName", "?")


def signature(node):
    """`(parameter types) -> result` of a function or initializer, or the type of a variable."""
    kind = node.get("declKind")
    children = [c for c in node.get("children", []) if c.get("kind", "").startswith("Type")]
    if kind in ("Func", "Constructor", "Subscript") and children:
        result, parameters = children[0], children[1:]
        shown = []
        for parameter in parameters:
            text = type_name(parameter)
            if parameter.get("paramValueOwnership") == "InOut":
                text = "inout " + text
            if parameter.get("hasDefaultArg"):
                text += " = default"
            shown.append(text)
        return " (" + ", ".join(shown) + ") -> " + type_name(result)
    if kind == "Var" and children:
        accessors = [a.get("accessorKind", "") for a in node.get("accessors", [])]
        return ": " + type_name(children[0]) + " { " + " ".join(accessors) + " }"
    if kind == "TypeAlias" and children:
        return " = " + type_name(children[0])
    if kind == "EnumElement" and children:
        return " " + type_name(children[0])  # (Enum.Type) -> (payload) -> Enum
    return ""


def describe(node, path):
    """One line for a declaration: qualified name, kind, signature, traits."""
    words = [node.get("declKind", node.get("kind", "?")).lower()]
    if node.get("static"):
        words.insert(0, "static")
    if node.get("funcSelfKind") == "Mutating":
        words.insert(0, "mutating")
    line = ".".join(path) + "  " + " ".join(words) + signature(node)
    traits = []
    if node.get("throwing"):
        traits.append("throws")
    if node.get("isAsync"):
        traits.append("async")
    if node.get("genericSig"):
        traits.append("where " + node["genericSig"])
    traits += [a for a in node.get("declAttributes", []) if a not in ("HasStorage", "HasInitialValue")]
    if node.get("isLet"):
        traits.append("let")
    conformances = [c["printedName"] for c in node.get("conformances", [])
                    if c["printedName"] not in IMPLICIT_CONFORMANCES]
    if conformances:
        traits.append(": " + ", ".join(sorted(conformances)))
    if node.get("enumRawTypeName"):
        traits.append("raw " + node["enumRawTypeName"])
    return line + ("  [" + "; ".join(traits) + "]" if traits else "")


def walk(node, path, lines):
    for child in node.get("children", []):
        kind = child.get("kind", "")
        if kind.startswith("Type") and kind != "TypeDecl" and kind != "TypeAlias":
            continue  # a type used in a signature, not a declaration
        if child.get("implicit"):
            continue
        if kind == "Import":
            lines.append("import " + child["printedName"])
            continue
        name = path + [child.get("printedName", "?")]
        lines.append(describe(child, name))
        walk(child, name, lines)


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        root = json.load(file)["ABIRoot"]
    lines = []
    walk(root, [], lines)
    for line in sorted(lines):
        if line != "import SwiftOnoneSupport":  # only in debug builds
            print(line)


if __name__ == "__main__":
    main()
