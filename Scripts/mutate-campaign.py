#!/usr/bin/env python3
"""A seeded, black-box mutation campaign over every input family phototag reads.

    Scripts/mutate-campaign.py [--phototag .build/release/phototag] [--seed 26]
        [--per-family 3000] [--shared ../shared] [--work DIR] [--keep]
        [--findings DIR] [--jobs 2] [--batch 200] [--timeout 60]

Seeds are the repository's `Fixtures/photos/`, `Fixtures/videos/` and `Fixtures/sidecars/`
and, when present, the shared development corpora `<shared>/corpus/dev/` and
`<shared>/corpus/video-dev/`; they are read in place and never written. Each family (by
extension: jpeg, heif, png, webp, tiff/raw, video, xmp, takeout json) gets `--per-family`
mutants, each made from one seed by one mutator, written to the work folder in batches and
run as `phototag locate --format ndjson FILE...` (LC_ALL=C, TZ=UTC). Everything is drawn from
`random.Random("<seed>/<family>/<index>")`, so one mutant can be made again from its id alone
and the campaign is the same on every run and machine.

Mutators: truncation at a random offset; 1-16 random bytes flipped or overwritten; a chunk
inserted or deleted; a chunk duplicated; a run of 0x00 or 0xFF; and, for XMP and JSON,
text-level mutations (an element, attribute or key deleted or duplicated, digits swapped, a
sign or hemisphere changed, a value's type changed, `rdf:about` changed).

Oracles, per mutant (the seed's own record, run the same way, is the baseline):

  1. crash / hang: a batch whose exit status is a signal or not one of README.md's (0, 1, 2),
     that prints fewer records than files, or that passes `--timeout`, is bisected down to the
     file(s) responsible (a single file is a hang past `--file-timeout`);
  2. range: every position finite, latitude in [-90, 90], longitude in [-180, 180];
  3. truncation: the seed's position (within 1e-9) or none. A file whose XMP packet comes before
     its EXIF (JPEG, PNG, HEIF) may legitimately fall back to the XMP position when EXIF is cut:
     such a position, when it is one of the seed's own XMP positions (by the reference below),
     is allowed and counted apart;
  4. untouched bytes (TIFF-based data: JPEG APP1 Exif, TIFF and raw): a small TIFF walker finds
     every IFD (IFD0 and its chain, EXIF, GPS, Interop, SubIFDs) and every out-of-line value;
     a mutation that only touches bytes after the last of them (for JPEG: after the first
     start-of-scan header, which phototag never reads past), or an in-place change inside a
     TIFF strip/tile that no structure overlaps, must give the seed's position or none;
  5. reference (XMP sidecars and Takeout JSON): an independent Python reading of docs/gps.md
     (ElementTree for XMP, json with a duplicate-key hook for Takeout) must give the same
     position within 1e-6, or both none. Where the documented behaviour does not settle a case
     (XML that Python's expat rejects but that is well-formed for a tag-nesting tokenizer, an
     unbound namespace prefix, minutes of 60 or more...), the case is "disagree-ambiguous":
     listed, saved, not counted as wrong.

Each failing mutant is copied to `--findings` (default /tmp/mut-findings) with a `.txt` holding
one line: what was done to which seed and what was expected. Exit status 1 when there is any
crash, hang, out-of-range or wrong position (ambiguous disagreements do not count), else 0.
"""
import argparse
import collections
import concurrent.futures
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FAMILIES = {
    "jpeg": {"jpg", "jpeg", "jpe", "jfif"},
    "heif": {"heic", "heif", "hif", "avif", "cr3"},
    "png": {"png"},
    "webp": {"webp"},
    "tiff": {"tif", "tiff", "dng", "cr2", "nef", "nrw", "arw", "srf", "sr2", "orf", "rw2", "pef", "srw"},
    "video": {"mov", "mp4", "m4v", "3gp"},
    "xmp": {"xmp"},
    "json": {"json"},
}
FAMILY_ORDER = list(FAMILIES)
EXT_FAMILY = {ext: fam for fam, exts in FAMILIES.items() for ext in exts}
# README.md, "Exit status": what `locate` may end with on its own (64 is a usage error, 130/143
# need a signal from outside: none of them is expected here).
DOCUMENTED_STATUSES = {0, 1, 2}

TOL_SEED = 1e-9
TOL_REF = 1e-6


# --------------------------------------------------------------------------------------------
# Seeds


def collect_seeds(shared, max_seed_bytes):
    roots = [os.path.join(REPO, "Fixtures", sub) for sub in ("photos", "videos", "sidecars")]
    roots += [os.path.join(shared, "corpus", sub) for sub in ("dev", "video-dev")]
    seeds = collections.defaultdict(list)
    skipped = collections.Counter()
    used_roots = []
    for root in roots:
        if not os.path.isdir(root):
            continue
        used_roots.append(root)
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(folder, name)
                ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
                family = EXT_FAMILY.get(ext)
                if family is None:
                    skipped["other extension ." + ext] += 1
                    continue
                size = os.path.getsize(path)
                if size > max_seed_bytes:
                    skipped[f"{family} over {max_seed_bytes} bytes"] += 1
                    continue
                with open(path, "rb") as handle:
                    data = handle.read()
                seeds[family].append({"path": path, "data": data, "ext": name.rsplit(".", 1)[-1]})
    return seeds, skipped, used_roots


# --------------------------------------------------------------------------------------------
# TIFF / JPEG structure walker (oracle 4)

TYPE_SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8}
POINTER_TAGS = {0x8769, 0x8825, 0xA005, 0x014A}  # EXIF, GPS, Interop, SubIFDs
STRIP_TAGS = {(0x0111, 0x0117), (0x0144, 0x0145)}  # StripOffsets/ByteCounts, TileOffsets/ByteCounts


def walk_tiff(data, base, limit):
    """The byte ranges (absolute, half-open) of every TIFF structure reachable from the header
    at `base`, the GPS IFD's own ranges, and the strip/tile data ranges; None if no TIFF there."""
    if base + 8 > limit:
        return None
    order = data[base:base + 2]
    if order == b"II":
        little = True
    elif order == b"MM":
        little = False
    else:
        return None

    def u16(off):
        if off < base or off + 2 > limit:
            raise ValueError
        return int.from_bytes(data[off:off + 2], "little" if little else "big")

    def u32(off):
        if off < base or off + 4 > limit:
            raise ValueError
        return int.from_bytes(data[off:off + 4], "little" if little else "big")

    magic = data[base + 2:base + 4]
    if magic not in (b"*\x00", b"\x00*", b"RO", b"OR", b"RS", b"U\x00", b"\x00U"):
        return None
    structures = [(base, base + 8)]
    gps = []
    strips = []
    try:
        first = u32(base + 4)
    except ValueError:
        return None
    queue = [(first, "ifd0")]
    seen = set()
    while queue and len(seen) < 64:
        rel, kind = queue.pop(0)
        if rel == 0 or rel in seen:
            continue
        seen.add(rel)
        off = base + rel
        try:
            count = u16(off)
        except ValueError:
            continue
        end = off + 2 + 12 * count + 4
        if end > limit or count > 4096:
            structures.append((off, min(end, limit)))
            continue
        structures.append((off, end))
        if kind == "gps":
            gps.append((off, end))
        values = {}
        for i in range(count):
            entry = off + 2 + 12 * i
            tag, typ, n = u16(entry), u16(entry + 2), u32(entry + 4)
            size = TYPE_SIZES.get(typ, 1) * n
            if size > 4:
                voff = u32(entry + 8)
                rng = (base + voff, min(base + voff + size, limit))
                if rng[0] < limit:
                    structures.append(rng)
                    if kind == "gps":
                        gps.append(rng)
                value_at = base + voff
            else:
                value_at = entry + 8
            if tag in POINTER_TAGS and typ in (4, 13, 16, 18):
                for k in range(min(n, 16)):
                    try:
                        target = u32(value_at + 4 * k)
                    except ValueError:
                        break
                    queue.append((target, {0x8769: "exif", 0x8825: "gps", 0xA005: "interop"}.get(tag, "sub")))
            if typ in (3, 4) and n <= 65536:
                width = 2 if typ == 3 else 4
                try:
                    values[tag] = [u16(value_at + width * k) if width == 2 else u32(value_at + width * k)
                                   for k in range(n)]
                except ValueError:
                    pass
        for offsets_tag, counts_tag in STRIP_TAGS:
            if offsets_tag in values and counts_tag in values:
                for o, c in zip(values[offsets_tag], values[counts_tag]):
                    if c > 0 and base + o + c <= limit:
                        strips.append((base + o, base + o + c))
        try:
            queue.append((u32(off + 2 + 12 * count), "next"))
        except ValueError:
            pass
    return {"structures": structures, "gps": gps, "strips": strips}


def jpeg_layout(data):
    """(Exif TIFF walk or None, offset where the first scan's data starts or None)."""
    if not data.startswith(b"\xff\xd8"):
        return None, None
    pos = 2
    exif = None
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            return exif, None
        while pos < len(data) and data[pos] == 0xFF:
            pos += 1
        if pos >= len(data):
            return exif, None
        marker = data[pos]
        pos += 1
        if marker in (0x01,) or 0xD0 <= marker <= 0xD7:
            continue
        if marker == 0xD9 or pos + 2 > len(data):
            return exif, None
        length = int.from_bytes(data[pos:pos + 2], "big")
        if length < 2 or pos + length > len(data):
            return exif, None
        if marker == 0xE1 and exif is None and data[pos + 2:pos + 8] == b"Exif\x00\x00":
            exif = walk_tiff(data, pos + 8, pos + length)
        if marker == 0xDA:
            return exif, pos + length
        pos += length
    return exif, None


def untouched_layout(data):
    """For TIFF-based data: (offset after which nothing phototag reads lies, in-place-safe ranges);
    None when the walker does not understand the file."""
    if data.startswith(b"\xff\xd8"):
        exif, scan = jpeg_layout(data)
        if scan is None:
            return None
        tail = scan
        if exif:
            tail = max([tail] + [end for _, end in exif["structures"]])
        return {"tail": tail, "inplace": [], "kind": "jpeg"}
    walk = walk_tiff(data, 0, len(data))
    if walk is None:
        return None
    tail = max(end for _, end in walk["structures"])
    inplace = [s for s in walk["strips"]
               if s[0] >= 8 and not any(a < s[1] and s[0] < b for a, b in walk["structures"])]
    return {"tail": tail, "inplace": inplace, "kind": "tiff"}


def mutation_untouched(layout, mutation):
    """Whether a byte mutation leaves every byte phototag reads as it was."""
    if layout is None or mutation["op"] == "truncate" or mutation.get("text"):
        return False
    lo, hi = mutation["span"]  # first byte touched, end of touched bytes (in the seed's offsets)
    if lo >= layout["tail"]:
        return True
    if mutation["inplace"]:
        return any(a <= lo and hi <= b for a, b in layout["inplace"])
    return False


# --------------------------------------------------------------------------------------------
# References (oracle 5)

DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)\Z")
SPACES = " \t\r\n"
RDF = "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}"
EXIF_NS = "{http://ns.adobe.com/exif/1.0/}"
DJI_NS = "{http://www.dji.com/drone-dji/1.0/}"


def decimal(text):
    text = text.strip(SPACES)
    return float(text) if DECIMAL.match(text) else None


def xmp_coordinate(text, ref, pos, neg, notes):
    """The XMP GPSCoordinate forms of docs/gps.md: DDD,MM.mmK / DDD,MM,SSK, or a decimal signed
    by its Ref."""
    if text is None:
        return None
    t = text.strip(SPACES)
    if t and t[-1].isdigit() and t[-1].isascii():
        value = decimal(t)
        if value is None:
            return None
        if ref is None:
            return value
        r = ref.strip(SPACES).upper()
        return abs(value) if r == pos else -abs(value) if r == neg else None
    if not t or t[-1] not in (pos, neg):
        if t and t[-1] in (pos.lower(), neg.lower()):
            notes.append("lower-case hemisphere letter")
        return None
    parts = t[:-1].split(",")
    if len(parts) not in (2, 3):
        return None
    nums = [decimal(p) for p in parts]
    if any(n is None or n < 0 for n in nums):
        return None
    if nums[1] >= 60 or (len(nums) == 3 and nums[2] >= 60):
        notes.append("minutes or seconds of 60 or more")
    value = nums[0] + nums[1] / 60 + (nums[2] / 3600 if len(nums) == 3 else 0)
    return -value if t[-1] == neg else value


def valid_position(lat, lon):
    if lat is None or lon is None or not (math.isfinite(lat) and math.isfinite(lon)):
        return None
    if abs(lat) > 90 or abs(lon) > 180 or (lat == 0 and lon == 0):
        return None
    return (lat, lon)


def lenient_xmp_root(data):
    """The packet as a tag-nesting tokenizer would see it, made acceptable to expat: bytes that
    are not UTF-8 and control characters become U+FFFD, an XML declaration is dropped, every
    prefix that is declared nowhere is bound to a dummy namespace, and the whole is wrapped in one
    root element (so text after the first root is kept). Raises ParseError when still not XML."""
    text = data.decode("utf-8", "replace")
    text = re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", "\ufffd", text)
    text = re.sub(r"<\?xml\s[^>]*\?>", "", text)
    used = set(re.findall(r"</?([A-Za-z_][\w.-]*):", text))
    used |= set(re.findall(r"\s([A-Za-z_][\w.-]*):[\w.-]+\s*=", text))
    declared = set(re.findall(r"xmlns:([\w.-]+)\s*=", text))
    decls = "".join(f' xmlns:{p}="urn:unbound:{p}"' for p in sorted(used - declared - {"xml", "xmlns"}))
    return ET.fromstring(f"<lenient-root{decls}>{text}</lenient-root>".encode("utf-8"))


def xmp_reference(data):
    """(position or None, reason it is none, notes that make the case ambiguous)."""
    notes = []
    try:
        root = ET.fromstring(data)
    except ET.ParseError as error:
        message = str(error)
        # What a tag-nesting tokenizer also rejects (docs/gps.md: tags nest and close, an attribute
        # given twice is not well-formed, the text must end): certain. Anything else expat rejects
        # (bytes that are not UTF-8, bad name characters, an unbound prefix, text after the root,
        # a misplaced declaration) is stricter than what docs/gps.md says phototag checks: then
        # the lenient reading above is the alternative answer, and a phototag answer that is
        # neither is still wrong.
        # expat names text after the root "unclosed token" too (a quote there starts a literal),
        # so a certain error is certain only when the lenient reading fails as well.
        certain = ("mismatched tag", "duplicate attribute", "no element found", "unclosed token")
        kind = message.split(":")[0]
        try:
            lenient, _, _ = xmp_position(lenient_xmp_root(data), [])
            notes.append(("lenient", lenient, "expat: " + kind))
        except ET.ParseError:
            if not any(word in message for word in certain):
                notes.append("expat: " + kind + " (no lenient reading either)")
        return None, "not well-formed (" + message + ")", notes
    except Exception as error:  # noqa: BLE001 - expat can raise others on odd encodings
        notes.append("expat: " + type(error).__name__)
        return None, "unparsable (" + str(error) + ")", notes
    return xmp_position(root, notes)


def xmp_position(root, notes):
    """docs/gps.md's reading of a parsed packet."""
    rdfs = []

    def find_rdf(element, inside_description):
        if element.tag == RDF + "RDF" and not inside_description:
            rdfs.append(element)
        inside = inside_description or element.tag == RDF + "Description"
        for child in element:
            find_rdf(child, inside)

    find_rdf(root, False)
    resource = None
    seen_first = False
    descriptions = []
    for rdf in rdfs:
        for child in rdf:
            if child.tag != RDF + "Description":
                continue
            about = child.get(RDF + "about", "")
            if not seen_first and about:
                resource = about
            seen_first = True
            if about == "" or about == resource:
                props = {}
                for key, value in child.attrib.items():
                    props.setdefault(key, value)
                for prop in child:
                    text = "".join(prop.itertext()).strip(SPACES)
                    if text and prop.tag not in props:
                        props[prop.tag] = text
                descriptions.append(props)
    coord_keys = [EXIF_NS + "GPSLatitude", EXIF_NS + "GPSLongitude",
                  DJI_NS + "GpsLatitude", DJI_NS + "GpsLongitude", DJI_NS + "GpsLongtitude"]
    located = next((d for d in descriptions if any(k in d for k in coord_keys)), None)
    if located is None:
        return None, "no coordinates", notes
    if EXIF_NS + "GPSLatitude" in located or EXIF_NS + "GPSLongitude" in located:
        lat = xmp_coordinate(located.get(EXIF_NS + "GPSLatitude"), located.get(EXIF_NS + "GPSLatitudeRef"),
                             "N", "S", notes)
        lon = xmp_coordinate(located.get(EXIF_NS + "GPSLongitude"), located.get(EXIF_NS + "GPSLongitudeRef"),
                             "E", "W", notes)
    else:
        notes.append("DJI coordinates in an XMP sidecar")
        lat = decimal(located.get(DJI_NS + "GpsLatitude", "")) if DJI_NS + "GpsLatitude" in located else None
        lon_text = located.get(DJI_NS + "GpsLongitude", located.get(DJI_NS + "GpsLongtitude"))
        lon = decimal(lon_text) if lon_text is not None else None
    position = valid_position(lat, lon)
    return position, None if position else "unusable coordinates", notes


class DuplicateKey(ValueError):
    pass


def _pairs(pairs):
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise DuplicateKey(key)
        seen.add(key)
    return dict(pairs)


def _no_constant(name):
    raise ValueError("not JSON: " + name)


def _float(text, huge):
    value = float(text)
    if math.isinf(value):
        huge.append(text)
    return value


def lone_surrogate(text):
    escapes = [(m.start(), int(m.group(1), 16)) for m in re.finditer(r"\\u([0-9a-fA-F]{4})", text)]
    i = 0
    while i < len(escapes):
        pos, unit = escapes[i]
        if 0xD800 <= unit <= 0xDBFF:
            if i + 1 < len(escapes) and escapes[i + 1][0] == pos + 6 and 0xDC00 <= escapes[i + 1][1] <= 0xDFFF:
                i += 2
                continue
            return True
        if 0xDC00 <= unit <= 0xDFFF:
            return True
        i += 1
    return False


def json_depth(value):
    if isinstance(value, dict):
        return 1 + max((json_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((json_depth(v) for v in value), default=0)
    return 0


def takeout_reference(data):
    """docs/gps.md, Takeout: `geoData` {latitude, longitude}, else `geoDataExif`; 0.0/0.0 is no
    position; duplicate keys, NaN and invalid UTF-8 make the file broken JSON."""
    notes = []
    huge = []
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None, "not UTF-8", notes
    try:
        root = json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant,
                          parse_float=lambda t: _float(t, huge))
    except DuplicateKey as error:
        return None, f"repeated key {error}", notes
    except (ValueError, RecursionError) as error:
        if "control character" in str(error):
            notes.append("raw control character in a string")
        if "integer string conversion" in str(error):
            notes.append("an integer of more than 4300 digits")
        return None, "not JSON (" + str(error)[:80] + ")", notes
    if lone_surrogate(text):
        notes.append("lone UTF-16 surrogate escape")
    if huge:
        notes.append("a number beyond the range of a double")
    if json_depth(root) > 64:
        notes.append("nested deeper than 64")
    if not isinstance(root, dict):
        return None, "not an object", notes
    if not any(k in root for k in ("geoData", "geoDataExif", "photoTakenTime")):
        return None, "not Takeout metadata", notes
    for key in ("geoData", "geoDataExif"):
        geo = root.get(key)
        if not isinstance(geo, dict):
            continue
        lat, lon = geo.get("latitude"), geo.get("longitude")
        if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in (lat, lon)):
            continue
        if isinstance(lat, int) and abs(lat) > 2 ** 53 or isinstance(lon, int) and abs(lon) > 2 ** 53:
            notes.append("integer beyond 2^53")
        try:
            position = valid_position(float(lat), float(lon))
        except OverflowError:
            notes.append("a number beyond the range of a double")
            continue
        if position:
            return position, None, notes
    return None, "no usable geoData/geoDataExif", notes


def embedded_xmp_positions(data):
    """The positions of every XMP packet found in a file's bytes (truncation's allowed fallback)."""
    positions = []
    for match in re.finditer(rb"<x:xmpmeta.*?</x:xmpmeta>", data, re.S):
        position, _, _ = xmp_reference(match.group(0))
        if position:
            positions.append(position)
    return positions


# --------------------------------------------------------------------------------------------
# Mutators


def pick_offset(rng, size, end_inclusive=False):
    """A random offset, half the time within the first 64 KiB (where the metadata is)."""
    top = size + (1 if end_inclusive else 0)
    if top <= 0:
        return 0
    if rng.random() < 0.5:
        return rng.randrange(min(top, 65536))
    return rng.randrange(top)


def byte_mutation(rng, data, layout):
    """One byte-level mutation: (new bytes, description dict)."""
    size = len(data)
    ops = ["truncate", "flip", "overwrite", "insert", "delete", "duplicate", "run"]
    op = rng.choice(ops)
    # Aim a share of the mutations at the bytes oracle 4 says are never read.
    aim = None
    if layout is not None and op != "truncate" and rng.random() < 0.35:
        choices = []
        if layout["tail"] < size:
            choices.append((layout["tail"], size))
        if op in ("flip", "overwrite", "run"):
            choices += layout["inplace"]
        if choices:
            aim = rng.choice(choices)
    if size == 0:
        op = "insert"

    def at(length=1):
        if aim:
            lo, hi = aim
            return rng.randrange(lo, max(lo + 1, hi - length + 1))
        return pick_offset(rng, max(size - length + 1, 1))

    def room(n):
        """n, cut to what fits in the aimed region (in-place changes stay inside it)."""
        return max(1, min(n, size, (aim[1] - aim[0]) if aim else size))

    if op == "truncate":
        cut = pick_offset(rng, size)
        return data[:cut], {"op": op, "desc": f"truncate to {cut} of {size} bytes", "span": (cut, size),
                            "inplace": False}
    if op == "flip":
        n = rng.randint(1, 16)
        out = bytearray(data)
        spots = sorted(at() for _ in range(n))
        for s in spots:
            out[s] ^= 1 << rng.randrange(8)
        return bytes(out), {"op": op, "desc": f"flip a bit in {n} bytes at {spots[:4]}{'...' if n > 4 else ''}",
                            "span": (spots[0], spots[-1] + 1), "inplace": True}
    if op == "overwrite":
        n = room(rng.randint(1, 16))
        s = at(n)
        out = bytearray(data)
        interesting = [0x00, 0xFF, 0x7F, 0x80, 0x01, 0xFE]
        for k in range(n):
            out[s + k] = rng.choice(interesting) if rng.random() < 0.3 else rng.randrange(256)
        return bytes(out), {"op": op, "desc": f"overwrite {n} bytes at {s}", "span": (s, s + n), "inplace": True}
    if op == "insert":
        n = rng.choice([1, 2, 4, 8, rng.randint(1, 64), rng.randint(1, 4096)])
        s = at() if aim else pick_offset(rng, size, end_inclusive=True)
        chunk = bytes(rng.randrange(256) for _ in range(n))
        return data[:s] + chunk + data[s:], {"op": op, "desc": f"insert {n} random bytes at {s}", "span": (s, size),
                                             "inplace": False}
    if op == "delete":
        n = min(rng.choice([1, 2, 4, 8, rng.randint(1, 64), rng.randint(1, 4096)]), size)
        s = at(n)
        return data[:s] + data[s + n:], {"op": op, "desc": f"delete {n} bytes at {s}", "span": (s, size),
                                         "inplace": False}
    if op == "duplicate":
        n = min(rng.choice([2, 4, 8, 12, rng.randint(1, 64), rng.randint(1, 4096)]), size)
        s = pick_offset(rng, max(size - n + 1, 1))
        d = at() if aim else pick_offset(rng, size, end_inclusive=True)
        return data[:d] + data[s:s + n] + data[d:], {
            "op": op, "desc": f"duplicate {n} bytes from {s} at {d}", "span": (d, size), "inplace": False}
    # run
    n = room(rng.choice([1, 2, 4, 8, rng.randint(1, 64), rng.randint(1, 1024)]))
    value = rng.choice([0x00, 0xFF])
    s = at(n)
    if rng.random() < 0.5:
        out = data[:s] + bytes([value]) * n + data[s + n:]
        return out, {"op": "run", "desc": f"overwrite {n} bytes at {s} with 0x{value:02X}", "span": (s, s + n),
                     "inplace": True}
    return data[:s] + bytes([value]) * n + data[s:], {"op": "run", "desc": f"insert {n} 0x{value:02X} bytes at {s}",
                                                      "span": (s, size), "inplace": False}


GPS_WORDS = re.compile(r"GPS|Gps|latitude|longitude|geoData|about", re.I)


def text_mutation(rng, data, family):
    """A text-level mutation of an XMP or JSON file; None when the text offers nothing to do."""
    text = data.decode("utf-8", "surrogateescape")
    if family == "xmp":
        kinds = ["del-attr", "dup-attr", "del-elem", "dup-elem", "digits", "sign", "hemisphere", "about",
                 "xmlns", "rename"]
    else:
        kinds = ["del-key", "dup-key", "digits", "sign", "type", "zero", "exponent"]
    for _ in range(8):
        kind = rng.choice(kinds)
        result = _text_mutation(rng, text, kind)
        if result is not None and result[0] != text:
            new, desc = result
            return new.encode("utf-8", "surrogateescape"), {"op": "text:" + kind, "desc": desc, "text": True,
                                                            "span": (0, len(data)), "inplace": False}
    return None


def _choose(rng, matches):
    """A random match, twice as likely among the GPS-related ones."""
    if not matches:
        return None
    gps = [m for m in matches if GPS_WORDS.search(m.group(0))]
    if gps and rng.random() < 0.6:
        return rng.choice(gps)
    return rng.choice(matches)


def _text_mutation(rng, text, kind):
    if kind in ("del-attr", "dup-attr"):
        m = _choose(rng, list(re.finditer(r"""\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*')""", text)))
        if not m:
            return None
        if kind == "del-attr":
            return text[:m.start()] + text[m.end():], f"delete attribute {m.group(0).strip()[:60]!r}"
        return text[:m.end()] + m.group(0) + text[m.end():], f"duplicate attribute {m.group(0).strip()[:60]!r}"
    if kind in ("del-elem", "dup-elem"):
        m = _choose(rng, list(re.finditer(r"<([\w.-]+:[\w.-]+)\b[^<>]*?(?:/>|>(?:(?!<\1\b).)*?</\1\s*>)", text, re.S)))
        if not m:
            return None
        if kind == "del-elem":
            return text[:m.start()] + text[m.end():], f"delete element <{m.group(1)}> at {m.start()}"
        return text[:m.end()] + m.group(0) + text[m.end():], f"duplicate element <{m.group(1)}> at {m.start()}"
    if kind in ("del-key", "dup-key"):
        m = _choose(rng, list(re.finditer(r'"[^"\\]*"\s*:\s*(?:"[^"\\]*"|-?[0-9.eE+-]+|true|false|null|\{[^{}]*\})\s*,?', text)))
        if not m:
            return None
        if kind == "del-key":
            return text[:m.start()] + text[m.end():], f"delete member {m.group(0)[:60]!r}"
        chunk = m.group(0) if m.group(0).rstrip().endswith(",") else m.group(0) + ","
        return text[:m.start()] + chunk + m.group(0) + text[m.end():], f"duplicate member {m.group(0)[:60]!r}"
    if kind == "digits":
        m = _choose(rng, list(re.finditer(r"[0-9]{2,}", text)))
        if not m:
            return None
        digits = list(m.group(0))
        i = rng.randrange(len(digits) - 1)
        if rng.random() < 0.5:
            digits[i], digits[i + 1] = digits[i + 1], digits[i]
            what = f"swap digits {i},{i + 1}"
        else:
            digits[i] = str(rng.randrange(10))
            what = f"set digit {i} to {digits[i]}"
        return text[:m.start()] + "".join(digits) + text[m.end():], f"{what} of {m.group(0)[:30]!r} at {m.start()}"
    if kind == "sign":
        m = _choose(rng, list(re.finditer(r"(?<![\w.])-?[0-9]+(?:\.[0-9]+)?", text)))
        if not m:
            return None
        s = m.group(0)
        new = s[1:] if s.startswith("-") else "-" + s
        return text[:m.start()] + new + text[m.end():], f"change the sign of {s[:30]!r} at {m.start()}"
    if kind == "hemisphere":
        m = _choose(rng, list(re.finditer(r"[0-9]([NSEWnsew])(?=[\"'<\s])", text)))
        if not m:
            return None
        letter = m.group(1)
        new = rng.choice([c for c in "NSEWnsX" if c != letter])
        i = m.start(1)
        return text[:i] + new + text[i + 1:], f"hemisphere {letter} -> {new} at {i}"
    if kind == "about":
        m = re.search(r"""rdf:about\s*=\s*(["'])(.*?)\1""", text)
        if not m:
            d = re.search(r"<rdf:Description\b", text)
            if not d:
                return None
            return text[:d.end()] + ' rdf:about="urn:x"' + text[d.end():], "add rdf:about=\"urn:x\""
        new = rng.choice(["", "x", "urn:other", m.group(2) + "x"])
        return (text[:m.start(2)] + new + text[m.end(2):], f"rdf:about {m.group(2)[:30]!r} -> {new!r}")
    if kind == "xmlns":
        m = _choose(rng, list(re.finditer(r"""\s+xmlns:[\w.-]+\s*=\s*(?:"[^"]*"|'[^']*')""", text)))
        if not m:
            return None
        return text[:m.start()] + text[m.end():], f"delete namespace declaration {m.group(0).strip()[:60]!r}"
    if kind == "rename":
        m = _choose(rng, list(re.finditer(r"exif:GPS\w+|rdf:Description|rdf:RDF", text)))
        if not m:
            return None
        new = rng.choice([m.group(0) + "x", m.group(0)[:-1], m.group(0).replace(":", ":x", 1)])
        return text[:m.start()] + new + text[m.end():], f"rename {m.group(0)!r} -> {new!r} at {m.start()}"
    if kind == "type":
        m = _choose(rng, list(re.finditer(r'(?<=:)\s*(-?[0-9][0-9.eE+-]*|"[^"\\]*"|\{[^{}]*\}|true|false|null)', text)))
        if not m:
            return None
        new = rng.choice(['"' + m.group(1).strip('"')[:20] + '"', "null", "true", "[]", "{}", "0", "-0.0"])
        return text[:m.start(1)] + new + text[m.end(1):], f"value {m.group(1)[:30]!r} -> {new}"
    if kind == "zero":
        m = _choose(rng, list(re.finditer(r"(?<=:)\s*-?[0-9]+(?:\.[0-9]+)?", text)))
        if not m:
            return None
        return text[:m.start()] + " 0.0" + text[m.end():], f"number {m.group(0).strip()!r} -> 0.0"
    if kind == "exponent":
        m = _choose(rng, list(re.finditer(r"(?<=:)\s*-?[0-9]+(?:\.[0-9]+)?", text)))
        if not m:
            return None
        new = m.group(0).strip() + rng.choice(["e0", "E-2", "e1", "e400", "e-400"])
        return text[:m.start()] + " " + new + text[m.end():], f"number {m.group(0).strip()!r} -> {new}"
    return None


# --------------------------------------------------------------------------------------------
# Running phototag


def run_locate(binary, paths, timeout):
    """(status or 'signal N' / 'timeout', records by path, raw stderr tail)."""
    env = dict(os.environ, LC_ALL="C", TZ="UTC")
    env.pop("NO_COLOR", None)
    try:
        proc = subprocess.run([binary, "locate", "--format", "ndjson", *paths], capture_output=True,
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return "timeout", {}, ""
    records = {}
    bad_lines = 0
    for line in proc.stdout.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            bad_lines += 1
            continue
        records[record.get("file")] = record
    status = proc.returncode
    if status < 0:
        status = f"signal {-status}"
    elif bad_lines:
        status = f"{status} with {bad_lines} unparsable lines"
    return status, records, proc.stderr[-400:].decode("utf-8", "replace")


def batch_ok(status, records, paths):
    return status in DOCUMENTED_STATUSES and all(p in records for p in paths)


def find_culprits(binary, paths, timeout, file_timeout, depth=0):
    """Bisects a failing batch: the single files that crash, hang or lose their record alone."""
    if len(paths) == 1:
        status, records, err = run_locate(binary, paths, file_timeout)
        if batch_ok(status, records, paths):
            return {}, records
        if status == "timeout":
            kind = "hang"
        elif status in DOCUMENTED_STATUSES or (isinstance(status, str) and "unparsable" in status):
            kind = "bad-output"  # a documented status, but a record missing or not JSON
        else:
            kind = "crash"
        return {paths[0]: (kind, f"status {status}; stderr: {err.strip()[-200:]}")}, {}
    half = len(paths) // 2
    culprits, records = {}, {}
    for part in (paths[:half], paths[half:]):
        sub_timeout = file_timeout + timeout * len(part) / 200.0
        status, recs, _ = run_locate(binary, part, sub_timeout)
        if batch_ok(status, recs, part):
            records.update(recs)
        else:
            c, r = find_culprits(binary, part, timeout, file_timeout, depth + 1)
            culprits.update(c)
            records.update(r)
    return culprits, records


def position_of(record):
    gps = record.get("gps") if record else None
    if record and record.get("status") == "located" and gps:
        return (gps.get("latitude"), gps.get("longitude"))
    return None


def same(a, b, tol):
    return a is not None and b is not None and abs(a[0] - b[0]) <= tol and abs(a[1] - b[1]) <= tol


def fmt(pos):
    return "none" if pos is None else f"{pos[0]!r},{pos[1]!r}"


# --------------------------------------------------------------------------------------------
# The campaign


def make_mutant(campaign_seed, family, index, seeds, layouts):
    import random
    rng = random.Random(f"{campaign_seed}/{family}/{index}")
    k = rng.randrange(len(seeds))
    seed = seeds[k]
    data = seed["data"]
    mutation = None
    if family in ("xmp", "json") and rng.random() < 0.5:
        result = text_mutation(rng, data, family)
        if result:
            data, mutation = result
    if mutation is None:
        data, mutation = byte_mutation(rng, data, layouts[k])
    return k, data, mutation


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phototag", default=os.path.join(REPO, ".build", "release", "phototag"))
    parser.add_argument("--shared", default=os.path.join(REPO, "..", "shared"))
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--per-family", type=int, default=3000)
    parser.add_argument("--families", default=",".join(FAMILY_ORDER), help="comma-separated subset")
    parser.add_argument("--work", help="where mutants are written (default: a new temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder and every mutant in it (several GB by default)")
    parser.add_argument("--findings", default="/tmp/mut-findings")
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per batch")
    parser.add_argument("--file-timeout", type=float, default=10.0, help="seconds for one file alone")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--max-seed-bytes", type=int, default=4 << 20)
    args = parser.parse_args()

    binary = os.path.abspath(args.phototag)
    if not os.access(binary, os.X_OK):
        sys.exit(f"mutate-campaign: no phototag binary at {binary}")
    families = [f for f in args.families.split(",") if f]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        sys.exit(f"mutate-campaign: unknown families {', '.join(unknown)} (known: {', '.join(FAMILY_ORDER)})")
    started = time.monotonic()
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="phototag-mutate-")
    os.makedirs(work, exist_ok=True)
    findings_dir = os.path.abspath(args.findings)
    os.makedirs(findings_dir, exist_ok=True)
    # A previous run's findings (only the files this script names) would be mistaken for this one's.
    for name in os.listdir(findings_dir):
        if name == "findings.txt" or re.match(r"[a-z]+-[a-z-]+-[0-9]{5}\.", name):
            os.remove(os.path.join(findings_dir, name))
    seeds, skipped, roots = collect_seeds(os.path.abspath(args.shared), args.max_seed_bytes)
    print(f"phototag: {binary}")
    print(f"seed roots: {', '.join(os.path.relpath(r, REPO) for r in roots)}")
    for reason, n in sorted(skipped.items()):
        print(f"  not a seed: {n} x {reason}")

    stats = {f: collections.Counter() for f in families}
    findings = []
    lines = []  # findings.txt

    def record_finding(family, kind, index, seed, mutation, data, ext, detail):
        name = f"{family}-{kind}-{index:05d}.{ext}"
        with open(os.path.join(findings_dir, name), "wb") as handle:
            handle.write(data)
        line = (f"{name}: {kind}: seed {os.path.relpath(seed['path'], REPO)}; {mutation['desc']}; {detail}"
                .replace("\n", " "))
        with open(os.path.join(findings_dir, name + ".txt"), "w") as handle:
            handle.write(line + "\n")
        findings.append({"family": family, "kind": kind, "name": name, "size": len(data), "line": line,
                         "why": family + ": " + detail.rsplit("ambiguous: ", 1)[-1]})
        lines.append(line)

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
    try:
        for family in families:
            fam_seeds = seeds.get(family, [])
            st = stats[family]
            st["seeds"] = len(fam_seeds)
            if not fam_seeds:
                print(f"{family}: no seeds, nothing run")
                continue
            # The seeds' own records, run the same way (copied under mutant-like names).
            seed_dir = os.path.join(work, "seeds", family)
            os.makedirs(seed_dir, exist_ok=True)
            seed_paths = []
            for k, seed in enumerate(fam_seeds):
                path = os.path.join(seed_dir, f"s{k:04d}.{seed['ext']}")
                with open(path, "wb") as handle:
                    handle.write(seed["data"])
                seed_paths.append(path)
            seed_records = {}
            for lo in range(0, len(seed_paths), args.batch):
                part = seed_paths[lo:lo + args.batch]
                status, recs, _ = run_locate(binary, part, args.timeout)
                if not batch_ok(status, recs, part):
                    culprits, recs = find_culprits(binary, part, args.timeout, args.file_timeout)
                    for path, (kind, detail) in culprits.items():
                        print(f"  SEED {kind}: {fam_seeds[seed_paths.index(path)]['path']}: {detail}")
                        st["seed " + kind] += 1
                seed_records.update(recs)
            seed_pos = [position_of(seed_records.get(p)) for p in seed_paths]
            layouts = [untouched_layout(s["data"]) if family in ("jpeg", "tiff", "png") else None
                       for s in fam_seeds]
            alternatives = [embedded_xmp_positions(s["data"]) if family not in ("xmp", "json") else []
                            for s in fam_seeds]
            references = None
            if family in ("xmp", "json"):
                reference = xmp_reference if family == "xmp" else takeout_reference
                for k, s in enumerate(fam_seeds):
                    ref, why, notes = reference(s["data"])
                    if not (same(ref, seed_pos[k], TOL_REF) or (ref is None and seed_pos[k] is None)):
                        print(f"  seed disagrees with the reference: {os.path.relpath(s['path'], REPO)}: "
                              f"phototag {fmt(seed_pos[k])}, reference {fmt(ref)} ({why}; {notes})")
                        st["seed disagreements"] += 1
                references = reference
            print(f"{family}: {len(fam_seeds)} seeds ({sum(p is not None for p in seed_pos)} located), "
                  f"{sum(l is not None for l in layouts)} with an untouched-bytes layout", flush=True)

            fam_dir = os.path.join(work, "mutants", family)

            def run_batch(lo):
                batch_dir = os.path.join(fam_dir, f"b{lo:06d}")
                os.makedirs(batch_dir, exist_ok=True)
                items = []
                for index in range(lo, min(lo + args.batch, args.per_family)):
                    k, data, mutation = make_mutant(args.seed, family, index, fam_seeds, layouts)
                    path = os.path.join(batch_dir, f"m{index:05d}.{fam_seeds[k]['ext']}")
                    with open(path, "wb") as handle:
                        handle.write(data)
                    items.append((index, k, data, mutation, path))
                paths = [item[4] for item in items]
                t0 = time.monotonic()
                status, records, _ = run_locate(binary, paths, args.timeout)
                culprits = {}
                if not batch_ok(status, records, paths):
                    culprits, records = find_culprits(binary, paths, args.timeout, args.file_timeout)
                elapsed = time.monotonic() - t0
                if not args.keep:
                    shutil.rmtree(batch_dir, ignore_errors=True)
                return items, records, culprits, elapsed

            for items, records, culprits, elapsed in pool.map(run_batch, range(0, args.per_family, args.batch)):
                st["phototag seconds"] += elapsed
                for index, k, data, mutation, path in items:
                    seed = fam_seeds[k]
                    ext = seed["ext"]
                    st["mutants"] += 1
                    st["op " + mutation["op"].split(":")[0]] += 1
                    if path in culprits:
                        kind, detail = culprits[path]
                        st[{"crash": "crashes", "hang": "hangs"}.get(kind, kind)] += 1
                        record_finding(family, kind, index, seed, mutation, data, ext, detail)
                        continue
                    record = records.get(path)
                    pos = position_of(record)
                    base = seed_pos[k]
                    # Oracle 2: range.
                    if pos is not None:
                        lat, lon = pos
                        if not (isinstance(lat, (int, float)) and isinstance(lon, (int, float))
                                and math.isfinite(lat) and math.isfinite(lon) and -90 <= lat <= 90
                                and -180 <= lon <= 180):
                            st["out-of-range"] += 1
                            record_finding(family, "out-of-range", index, seed, mutation, data, ext,
                                           f"position {fmt(pos)}")
                            continue
                    # Oracle 3: truncation.
                    if mutation["op"] == "truncate":
                        st["checked truncation"] += 1
                        if pos is not None and not same(pos, base, TOL_SEED):
                            if any(same(pos, alt, TOL_REF) for alt in alternatives[k]):
                                st["truncation to XMP fallback"] += 1
                            else:
                                st["wrong (truncation)"] += 1
                                record_finding(family, "wrong-truncation", index, seed, mutation, data, ext,
                                               f"seed {fmt(base)}, mutant {fmt(pos)} ({record.get('gps', {}).get('source')})")
                                continue
                    # Oracle 4: bytes phototag never reads.
                    if mutation_untouched(layouts[k], mutation):
                        st["checked untouched"] += 1
                        if pos is not None and not same(pos, base, TOL_SEED):
                            st["wrong (untouched)"] += 1
                            record_finding(family, "wrong-untouched", index, seed, mutation, data, ext,
                                           f"layout {layouts[k]['kind']} tail {layouts[k]['tail']}; "
                                           f"seed {fmt(base)}, mutant {fmt(pos)}")
                            continue
                    # Oracle 5: reference.
                    if references is not None:
                        st["checked reference"] += 1
                        ref, why, notes = references(data)
                        agree = same(ref, pos, TOL_REF) or (ref is None and pos is None)
                        lenient = [n for n in notes if isinstance(n, tuple)]
                        notes = [n for n in notes if not isinstance(n, tuple)]
                        for _, alt, kind in lenient:
                            if same(alt, pos, TOL_REF) or (alt is None and pos is None):
                                notes.append(kind + ", and the lenient reading agrees")
                        if not agree:
                            detail = (f"phototag {fmt(pos)} ({record.get('status') if record else 'no record'}: "
                                      f"{(record or {}).get('error') or '; '.join((record or {}).get('warnings') or [])}"
                                      f"), reference {fmt(ref)} ({why or 'located'})")
                            if notes:
                                st["disagree-ambiguous"] += 1
                                record_finding(family, "ambiguous", index, seed, mutation, data, ext,
                                               detail + f"; ambiguous: {', '.join(sorted(set(notes)))}")
                            else:
                                st["wrong (reference)"] += 1
                                record_finding(family, "wrong-reference", index, seed, mutation, data, ext, detail)
                            continue
                    if pos is not None:
                        st["located"] += 1
                    if record and record.get("status") == "error":
                        st["error records"] += 1
            print(f"  {family}: {st['mutants']} mutants in {st['phototag seconds']:.1f} s of phototag", flush=True)
    finally:
        pool.shutdown()
        if not args.keep:
            # Only what this run made: a --work folder given by name keeps anything else it held.
            for sub in ("seeds", "mutants"):
                shutil.rmtree(os.path.join(work, sub), ignore_errors=True)
            if not os.listdir(work):
                os.rmdir(work)

    wall = time.monotonic() - started
    with open(os.path.join(findings_dir, "findings.txt"), "w") as handle:
        handle.write("".join(line + "\n" for line in lines))

    columns = [("seeds", "seeds"), ("mutants", "mutants"), ("crashes", "crashes"), ("hangs", "hangs"),
               ("bad-output", "bad output"),
               ("out-of-range", "out-of-range"), ("wrong (truncation)", "wrong trunc"),
               ("wrong (untouched)", "wrong untouched"), ("wrong (reference)", "wrong ref"),
               ("disagree-ambiguous", "ambiguous"), ("checked truncation", "o3 checked"),
               ("checked untouched", "o4 checked"), ("checked reference", "o5 checked"),
               ("located", "located"), ("error records", "errors")]
    print()
    print("| family | " + " | ".join(title for _, title in columns) + " |")
    print("|---|" + "---:|" * len(columns))
    totals = collections.Counter()
    for family in families:
        st = stats[family]
        if not st["seeds"]:
            print(f"| {family} | no seeds |" + " |" * (len(columns) - 1))
            continue
        totals.update({key: st[key] for key, _ in columns})
        print(f"| {family} | " + " | ".join(str(st[key]) for key, _ in columns) + " |")
    print("| all | " + " | ".join(str(totals[key]) for key, _ in columns) + " |")
    extra = [(f, key, n) for f in families for key, n in stats[f].items()
             if key.startswith("seed ") or key == "truncation to XMP fallback"]
    for family, key, n in extra:
        print(f"  {family}: {key}: {n}")
    print(f"\nwall time {wall:.0f} s; {len(findings)} findings in {findings_dir} (findings.txt)")
    smallest = {}
    for f in findings:
        key = (f["family"], f["kind"])
        if key not in smallest or (f["size"], f["name"]) < (smallest[key]["size"], smallest[key]["name"]):
            smallest[key] = f
    for (family, kind), f in sorted(smallest.items()):
        count = sum(1 for g in findings if (g["family"], g["kind"]) == (family, kind))
        print(f"  {count} x {family} {kind}; smallest {f['size']} bytes: {f['line']}")
    notes = collections.Counter(f["why"] for f in findings if f["kind"] == "ambiguous")
    for why, n in notes.most_common():
        smallest_one = min((f for f in findings if f["kind"] == "ambiguous" and f["why"] == why),
                           key=lambda f: (f["size"], f["name"]))
        print(f"  disagree-ambiguous: {n} x {why}; smallest {smallest_one['name']} ({smallest_one['size']} bytes)")
    bad = totals["crashes"] + totals["hangs"] + totals["bad-output"] + totals["out-of-range"] + totals["wrong (truncation)"] \
        + totals["wrong (untouched)"] + totals["wrong (reference)"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
