#!/usr/bin/env python3
"""Deterministic, camera-like JPEGs and random points for `make bench` (standard library only).

    python3 Benchmarks/corpus.py photos DIR [--count 2000] [--seed 1]   # DIR/photos/, DIR/manifest.json
    python3 Benchmarks/corpus.py points FILE [--count 1000000] [--seed 1]

Every photo is a real JPEG structure, laid out like a camera's:

    SOI
    APP1 "Exif": TIFF header (II or MM, as the make writes it), then
        IFD0      Make, Model, Orientation, X/YResolution, ResolutionUnit, Software, DateTime,
                  YCbCrPositioning (+ Artist, Copyright, HostComputer for some), Exif and GPS pointers
        Exif IFD  ~40 typical tags (exposure, lens, dates with sub-seconds and offsets, pixel size,
                  UserComment...), an Interop IFD, and a MakerNote of 3-30 KB laid out the way the
                  make does it (Canon: bare IFD; Nikon: "Nikon" + its own TIFF header; Sony:
                  "SONY DSC" + IFD; Apple: "Apple iOS" + IFD), entries of the usual kinds
        GPS IFD   15 tags, a position near one of ~90 cities spread over every continent (seeded
                  jitter of up to ±0.3°), on 92% of the photos; the other 8% have no GPS IFD
        IFD1      a thumbnail JPEG of 8-20 KB (its own DQT/SOF0/DHT/SOS and entropy bytes)
      so that the APP1 segment is 13-51 KiB (with seed 1), like real cameras' 15-60 KB.
    DQT (two tables), SOF0 (the model's full size, 3 components), DHT (four tables), SOS
    entropy-coded filler bytes (pseudo-random, 0xFF stuffed as 0xFF 0x00) up to the file's size
    EOI

70% of the photos are 3-5 MB (camera originals), 30% are 80-600 KB (exports, messaging copies).
They are spread over DCIM-like folders, 200 per folder, named like the make names them.

Nothing depends on the clock or the machine: the same seed and version give byte-identical files.
Bump GENERATOR_VERSION whenever the output changes (the benchmark's cache is keyed by it).
"""
import argparse
import json
import math
import os
import random
import shutil
import struct
import sys

GENERATOR_VERSION = 2

# Cities on every continent (lat, lon): photos are taken near them, a little off, on land or close to it.
CITIES = [
    (48.8566, 2.3522), (51.5074, -0.1278), (52.5200, 13.4050), (41.9028, 12.4964), (40.4168, -3.7038),
    (59.3293, 18.0686), (60.1699, 24.9384), (50.0755, 14.4378), (47.4979, 19.0402), (52.2297, 21.0122),
    (55.7558, 37.6173), (41.0082, 28.9784), (37.9838, 23.7275), (38.7223, -9.1393), (53.3498, -6.2603),
    (64.1466, -21.9426), (45.4642, 9.1900), (43.2965, 5.3698), (46.2044, 6.1432), (48.2082, 16.3738),
    (40.7128, -74.0060), (34.0522, -118.2437), (41.8781, -87.6298), (29.7604, -95.3698), (47.6062, -122.3321),
    (37.7749, -122.4194), (25.7617, -80.1918), (39.7392, -104.9903), (45.5017, -73.5673), (43.6532, -79.3832),
    (49.2827, -123.1207), (19.4326, -99.1332), (20.6597, -103.3496), (61.2181, -149.9003), (21.3069, -157.8583),
    (-23.5505, -46.6333), (-22.9068, -43.1729), (-34.6037, -58.3816), (-33.4489, -70.6693), (-12.0464, -77.0428),
    (4.7110, -74.0721), (-0.1807, -78.4678), (10.4806, -66.9036), (-15.7939, -47.8828), (-54.8019, -68.3030),
    (35.6762, 139.6503), (34.6937, 135.5023), (43.0618, 141.3545), (37.5665, 126.9780), (39.9042, 116.4074),
    (31.2304, 121.4737), (22.3193, 114.1694), (25.0330, 121.5654), (13.7563, 100.5018), (1.3521, 103.8198),
    (-6.2088, 106.8456), (14.5995, 120.9842), (21.0278, 105.8342), (28.6139, 77.2090), (19.0760, 72.8777),
    (12.9716, 77.5946), (27.7172, 85.3240), (24.8607, 67.0011), (35.6892, 51.3890), (25.2048, 55.2708),
    (31.7683, 35.2137), (33.8938, 35.5018), (24.7136, 46.6753), (43.2220, 76.8512), (41.2995, 69.2401),
    (30.0444, 31.2357), (6.5244, 3.3792), (-1.2921, 36.8219), (-33.9249, 18.4241), (-26.2041, 28.0473),
    (33.5731, -7.5898), (36.8065, 10.1815), (9.0250, 38.7469), (-18.8792, 47.5079), (14.7167, -17.4677),
    (-33.8688, 151.2093), (-37.8136, 144.9631), (-27.4698, 153.0251), (-31.9505, 115.8605), (-36.8485, 174.7633),
    (-43.5321, 172.6362), (-17.7134, 178.0650), (-12.4634, 130.8456), (-23.6980, 133.8807), (-9.4438, 147.1803),
]

# make, model, byte order, full image size, software, maker-note layout, file naming, lens
CAMERAS = [
    ("Canon", "Canon EOS 5D Mark IV", "<", (6720, 4480), "Firmware Version 1.3.3", "canon", ("IMG_", ".JPG", "CANON"),
     "EF24-70mm f/2.8L II USM"),
    ("NIKON CORPORATION", "NIKON Z 6_2", ">", (6048, 4024), "Ver.01.60", "nikon", ("DSC_", ".JPG", "NIKON"),
     "NIKKOR Z 24-70mm f/4 S"),
    ("SONY", "ILCE-7M3", "<", (6000, 4000), "ILCE-7M3 v4.01", "sony", ("DSC", ".JPG", "MSDCF"), "FE 24-105mm F4 G OSS"),
    ("Apple", "iPhone 13 Pro", ">", (4032, 3024), "17.5.1", "apple", ("IMG_", ".jpg", "APPLE"),
     "iPhone 13 Pro back triple camera 5.7mm f/1.5"),
]
# Maker-note tags never filled with random values: pointers to sub-IFDs in the make's own layout
# (Nikon's PreviewIFD), and records whose fields index each other (Canon's AFInfo and AFInfo2:
# random point counts make Exiv2 0.27 stop with an uncaught std::out_of_range).
NOTE_SKIPPED = {"nikon": {0x0011}, "canon": {0x0012, 0x0026}, "sony": set(), "apple": set()}

BYTE, ASCII, SHORT, LONG, RATIONAL, UNDEFINED, SLONG, SRATIONAL = 1, 2, 3, 4, 5, 7, 9, 10
TYPE_SIZE = {BYTE: 1, ASCII: 1, SHORT: 2, LONG: 4, RATIONAL: 8, UNDEFINED: 1, SLONG: 4, SRATIONAL: 8}


def encode(order, kind, value):
    """(count, bytes) of a TIFF value: str for ASCII (NUL added), bytes for UNDEFINED/BYTE,
    a list of ints or (numerator, denominator) pairs otherwise."""
    if kind == ASCII:
        data = value.encode("ascii") + b"\0"
        return len(data), data
    if kind in (UNDEFINED, BYTE):
        return len(value), bytes(value)
    if kind in (RATIONAL, SRATIONAL):
        code = "I" if kind == RATIONAL else "i"
        return len(value), b"".join(struct.pack(order + code + code, n, d) for n, d in value)
    code = {SHORT: "H", LONG: "I", SLONG: "i"}[kind]
    return len(value), struct.pack(order + code * len(value), *value)


class Entry:
    """One IFD entry; `payload` is bytes, or a function of the value's absolute offset (for
    maker notes whose inner offsets depend on where they land) with a known `length`."""

    def __init__(self, tag, kind, value=None, order="<", payload=None, length=None, count=None):
        self.tag, self.kind = tag, kind
        if payload is None:
            self.count, data = encode(order, kind, value)
            self.payload, self.length = (lambda _offset, data=data: data), len(data)
        else:
            self.payload, self.length, self.count = payload, length, count


def ifd_size(entries):
    size = 2 + 12 * len(entries) + 4
    for entry in entries:
        if entry.length > 4:
            size += entry.length + (entry.length & 1)
    return size


def write_ifd(order, entries, offset, next_ifd=0):
    """The IFD at `offset` (relative to its TIFF header), followed by its own data area."""
    entries = sorted(entries, key=lambda entry: entry.tag)
    head = [struct.pack(order + "H", len(entries))]
    data = []
    cursor = offset + 2 + 12 * len(entries) + 4
    for entry in entries:
        if entry.length > 4:
            value = entry.payload(cursor)
            assert len(value) == entry.length
            head.append(struct.pack(order + "HHII", entry.tag, entry.kind, entry.count, cursor))
            data.append(value + b"\0" * (len(value) & 1))
            cursor += len(value) + (len(value) & 1)
        else:
            value = entry.payload(0)
            head.append(struct.pack(order + "HHI", entry.tag, entry.kind, entry.count) + value.ljust(4, b"\0"))
    head.append(struct.pack(order + "I", next_ifd))
    block = b"".join(head + data)
    assert len(block) == ifd_size(entries)
    return block


def segment(marker, body):
    assert len(body) + 2 <= 0xFFFF, (hex(marker), len(body))
    return struct.pack(">HH", marker, len(body) + 2) + body


LUMA_Q = [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
          14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
          49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99]
CHROMA_Q = [17, 18, 24, 47] + [99] * 4 + [18, 21, 26, 66] + [99] * 4 + [24, 26, 56] + [99] * 5 + [47, 66] + [99] * 42


def image_headers(width, height, quality):
    """DQT, SOF0 (3 components, 4:2:0), DHT (baseline luma/chroma DC and AC tables), SOS."""
    scale = 5000 // quality if quality < 50 else 200 - 2 * quality
    tables = b""
    for index, base in enumerate((LUMA_Q, CHROMA_Q)):
        tables += bytes([index]) + bytes(max(1, min(255, (q * scale + 50) // 100)) for q in base)
    dqt = segment(0xFFDB, tables)
    sof = segment(0xFFC0, struct.pack(">BHHB", 8, height, width, 3) + bytes([1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]))
    dc_luma = (bytes([0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]), bytes(range(12)))
    dc_chroma = (bytes([0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]), bytes(range(12)))
    ac_symbols = bytes([0x00, 0xF0] + [(run << 4) | size for run in range(16) for size in range(1, 11)])
    ac_luma = (bytes([0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D]), ac_symbols)
    ac_chroma = (bytes([0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77]), ac_symbols)
    dht = segment(0xFFC4, b"".join(bytes([klass]) + bits + values for klass, (bits, values) in
                                   ((0x00, dc_luma), (0x01, dc_chroma), (0x10, ac_luma), (0x11, ac_chroma))))
    sos = segment(0xFFDA, bytes([3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]))
    return dqt + sof + dht + sos


class Filler:
    """Pseudo-random entropy-coded bytes (0xFF always followed by 0x00), sliced from one seeded pool."""

    def __init__(self, seed, size=6 * 1024 * 1024):
        raw = random.Random(seed).randbytes(size)
        self.pool = memoryview(raw.replace(b"\xff", b"\xff\x00"))

    def take(self, rng, length):
        start = rng.randrange(1, len(self.pool) - length - 1)
        if self.pool[start - 1] == 0xFF:
            start += 1  # never start on the 0x00 of a stuffed pair
        chunk = self.pool[start:start + length]
        if chunk[-1] == 0xFF:
            chunk = self.pool[start:start + length - 1]  # never end inside a stuffed pair
        return chunk


def thumbnail(rng, filler):
    head = b"\xff\xd8" + image_headers(160, 120, 80)
    size = rng.randrange(8 * 1024, 20 * 1024)
    return head + bytes(filler.take(rng, size - len(head) - 2)) + b"\xff\xd9"


def maker_note(rng, kind, order, size):
    """(payload function, length) of a MakerNote of about `size` bytes in the make's layout."""
    inner = ">" if kind == "nikon" else (">" if kind == "apple" else order)
    entries = []
    tag = 1
    used = 0
    count = rng.randrange(24, 48)
    for _ in range(count):
        while tag in NOTE_SKIPPED[kind]:
            tag += 1
        pick = rng.random()
        if pick < 0.45:
            values = [rng.randrange(0, 65536) for _ in range(rng.choice((1, 2, 4, 1, 8, 16, 24, 48)))]
            if kind == "canon":  # Canon's binary records start with their own size in bytes
                values[0] = 2 * len(values)
            entry = Entry(tag, SHORT, values, inner)
        elif pick < 0.65:
            entry = Entry(tag, LONG, [rng.randrange(0, 1 << 32) for _ in range(rng.choice((1, 1, 2, 4)))], inner)
        elif pick < 0.8:
            entry = Entry(tag, ASCII, "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(rng.randrange(4, 32))), inner)
        elif pick < 0.9:
            entry = Entry(tag, RATIONAL, [(rng.randrange(1, 1000), rng.randrange(1, 100)) for _ in range(rng.choice((1, 2, 3)))], inner)
        else:
            entry = Entry(tag, UNDEFINED, rng.randbytes(rng.randrange(8, 200)), inner)
        entries.append(entry)
        used += 12 + (entry.length if entry.length > 4 else 0)
        tag += rng.choice((1, 1, 1, 2, 3))
    # One large binary record (like Canon's ColorData or Sony's encrypted blocks) fills it up.
    blob = rng.randbytes(max(64, size - used - 64))
    entries.append(Entry(0x4001 if kind == "canon" else 0x2010 if kind == "sony" else tag + 1, UNDEFINED, blob, inner))
    if kind == "canon":  # a bare IFD, offsets from the photo's TIFF header
        return (lambda offset: write_ifd(order, entries, offset)), ifd_size(entries)
    if kind == "sony":  # "SONY DSC \0\0\0", then an IFD with offsets from the TIFF header
        prefix = b"SONY DSC \0\0\0"
        return (lambda offset: prefix + write_ifd(order, entries, offset + len(prefix))), len(prefix) + ifd_size(entries)
    if kind == "nikon":  # "Nikon\0" + version, then a TIFF header of its own that offsets count from
        prefix = b"Nikon\0\x02\x10\0\0" + b"MM\0\x2a\0\0\0\x08"
        return (lambda _offset: prefix + write_ifd(">", entries, 8)), len(prefix) + ifd_size(entries)
    # Apple: "Apple iOS\0", version 1, "MM", then an IFD with offsets from the maker note's start
    prefix = b"Apple iOS\0\0\x01MM"
    return (lambda _offset: prefix + write_ifd(">", entries, len(prefix))), len(prefix) + ifd_size(entries)


def dms(value, rng, style):
    value = abs(value)
    degrees = int(value)
    minutes = (value - degrees) * 60
    if style == "apple":  # degrees, minutes, hundredths of seconds
        whole = int(minutes)
        return [(degrees, 1), (whole, 1), (round((minutes - whole) * 60 * 100), 100)]
    return [(degrees, 1), (round(minutes * 10000), 10000), (0, 1)]  # decimal minutes (Nikon, Canon GPS units)


def exif_block(rng, camera, index, with_gps, filler):
    """The APP1 Exif segment's body and (latitude, longitude) or None."""
    make, model, order, (width, height), software, note_kind, _, lens = camera
    year = 2015 + rng.randrange(10)
    stamp = f"{year}:{rng.randrange(1, 13):02}:{rng.randrange(1, 29):02} {rng.randrange(24):02}:{rng.randrange(60):02}:{rng.randrange(60):02}"
    offset_time = rng.choice(("+01:00", "+02:00", "-05:00", "+09:00", "-03:00", "+05:30", "+00:00"))
    E = lambda tag, kind, value: Entry(tag, kind, value, order)

    ifd0 = [E(0x010F, ASCII, make), E(0x0110, ASCII, model), E(0x0112, SHORT, [rng.choice((1, 1, 1, 6, 8, 3))]),
            E(0x011A, RATIONAL, [(72, 1)]), E(0x011B, RATIONAL, [(72, 1)]), E(0x0128, SHORT, [2]),
            E(0x0131, ASCII, software), E(0x0132, ASCII, stamp), E(0x0213, SHORT, [1 if note_kind == "apple" else 2])]
    if note_kind == "apple":
        ifd0.append(E(0x013C, ASCII, model))
    elif rng.random() < 0.5:
        ifd0 += [E(0x013B, ASCII, "Jane Photographer"), E(0x8298, ASCII, "Copyright (c) Jane Photographer")]
    ifd0 += [E(0x8769, LONG, [0])] + ([E(0x8825, LONG, [0])] if with_gps else [])

    exposure = rng.choice(((1, 8000), (1, 2000), (1, 500), (1, 250), (1, 125), (1, 60), (1, 30), (1, 4)))
    f_number = rng.choice(((14, 10), (18, 10), (28, 10), (4, 1), (56, 10), (8, 1), (11, 1)))
    focal = rng.choice(((24, 1), (35, 1), (50, 1), (85, 1), (200, 1), (57, 10)))
    sub = f"{rng.randrange(100):02}"
    note_size = rng.randrange(3 * 1024, 30 * 1024)
    note, note_length = maker_note(rng, note_kind, order, note_size)
    exif = [E(0x829A, RATIONAL, [exposure]), E(0x829D, RATIONAL, [f_number]), E(0x8822, SHORT, [rng.choice((1, 2, 3, 4))]),
            E(0x8827, SHORT, [rng.choice((50, 100, 200, 400, 800, 1600, 3200, 6400))]), E(0x8830, SHORT, [2]),
            E(0x9000, UNDEFINED, b"0232"), E(0x9003, ASCII, stamp), E(0x9004, ASCII, stamp),
            E(0x9010, ASCII, offset_time), E(0x9011, ASCII, offset_time), E(0x9012, ASCII, offset_time),
            E(0x9101, UNDEFINED, b"\x01\x02\x03\x00"), E(0x9201, SRATIONAL, [(int(math.log2(exposure[1] / exposure[0]) * 1000), 1000)]),
            E(0x9202, RATIONAL, [(int(2 * math.log2(f_number[0] / f_number[1]) * 1000), 1000)]),
            E(0x9203, SRATIONAL, [(rng.randrange(-5000, 12000), 1000)]), E(0x9204, SRATIONAL, [(rng.choice((-6, -3, 0, 0, 0, 3)), 3)]),
            E(0x9205, RATIONAL, [(3, 1)]), E(0x9207, SHORT, [5]), E(0x9209, SHORT, [rng.choice((16, 16, 24, 9))]),
            E(0x920A, RATIONAL, [focal]), E(0x9214, SHORT, [width // 2, height // 2, 2000, 1400]),
            Entry(0x927C, UNDEFINED, payload=note, length=note_length, count=note_length),
            E(0x9286, UNDEFINED, b"\0" * 264 if note_kind == "canon" else b"ASCII\0\0\0" + b" " * 32),
            E(0x9290, ASCII, sub), E(0x9291, ASCII, sub), E(0x9292, ASCII, sub),
            E(0xA000, UNDEFINED, b"0100"), E(0xA001, SHORT, [1]), E(0xA002, LONG, [width]), E(0xA003, LONG, [height]),
            E(0xA005, LONG, [0]), E(0xA217, SHORT, [2]), E(0xA301, UNDEFINED, b"\x01"), E(0xA401, SHORT, [0]),
            E(0xA402, SHORT, [0]), E(0xA403, SHORT, [0]), E(0xA405, SHORT, [focal[0] // focal[1]]), E(0xA406, SHORT, [0]),
            E(0xA431, ASCII, f"{rng.randrange(10**11, 10**12)}"), E(0xA432, RATIONAL, [(24, 1), (70, 1), (28, 10), (28, 10)]),
            E(0xA434, ASCII, lens)]
    interop = [E(0x0001, ASCII, "R98"), E(0x0002, UNDEFINED, b"0100")]

    position = None
    gps = []
    if with_gps:
        base_lat, base_lon = rng.choice(CITIES)
        lat = max(-89.9, min(89.9, base_lat + rng.uniform(-0.3, 0.3)))
        lon = base_lon + rng.uniform(-0.3, 0.3)
        lon = lon - 360 if lon > 180 else lon + 360 if lon < -180 else lon
        style = "apple" if note_kind == "apple" else "minutes"
        position = (lat, lon)
        gps = [E(0x0000, BYTE, b"\x02\x03\x00\x00"), E(0x0001, ASCII, "N" if lat >= 0 else "S"),
               E(0x0002, RATIONAL, dms(lat, rng, style)), E(0x0003, ASCII, "E" if lon >= 0 else "W"),
               E(0x0004, RATIONAL, dms(lon, rng, style)), E(0x0005, BYTE, b"\x00"),
               E(0x0006, RATIONAL, [(rng.randrange(0, 300000), 100)]),
               E(0x0007, RATIONAL, [(rng.randrange(24), 1), (rng.randrange(60), 1), (rng.randrange(6000), 100)]),
               E(0x000C, ASCII, "K"), E(0x000D, RATIONAL, [(rng.randrange(0, 5000), 100)]),
               E(0x0010, ASCII, "T"), E(0x0011, RATIONAL, [(rng.randrange(0, 36000), 100)]),
               E(0x0012, ASCII, "WGS-84"), E(0x001D, ASCII, stamp[:10]),
               E(0x001F, RATIONAL, [(rng.randrange(100, 5000), 100)])]

    thumb = thumbnail(rng, filler)
    ifd1 = [E(0x0103, SHORT, [6]), E(0x011A, RATIONAL, [(72, 1)]), E(0x011B, RATIONAL, [(72, 1)]), E(0x0128, SHORT, [2]),
            E(0x0201, LONG, [0]), E(0x0202, LONG, [len(thumb)])]

    # Layout: header, IFD0, Exif IFD, Interop IFD, GPS IFD, IFD1, thumbnail.
    at_ifd0 = 8
    at_exif = at_ifd0 + ifd_size(ifd0)
    at_interop = at_exif + ifd_size(exif)
    at_gps = at_interop + ifd_size(interop)
    at_ifd1 = at_gps + (ifd_size(gps) if gps else 0)
    at_thumb = at_ifd1 + ifd_size(ifd1)

    def point(entries, tag, value):
        for position_, entry in enumerate(entries):
            if entry.tag == tag:
                entries[position_] = E(tag, LONG, [value])

    point(ifd0, 0x8769, at_exif)
    point(ifd0, 0x8825, at_gps)
    point(exif, 0xA005, at_interop)
    point(ifd1, 0x0201, at_thumb)
    header = b"II*\0" if order == "<" else b"MM\0*"
    tiff = (header + struct.pack(order + "I", at_ifd0) + write_ifd(order, ifd0, at_ifd0, at_ifd1) +
            write_ifd(order, exif, at_exif) + write_ifd(order, interop, at_interop) +
            (write_ifd(order, gps, at_gps) if gps else b"") + write_ifd(order, ifd1, at_ifd1) + thumb)
    assert len(tiff) == at_thumb + len(thumb)
    return b"Exif\0\0" + tiff, position


def make_photos(directory, count=2000, seed=1, progress=None):
    """Writes `count` photos under `directory` (which must not exist yet) and manifest.json
    beside them; returns the manifest."""
    rng = random.Random(seed)
    filler = Filler(seed)
    os.makedirs(directory)
    manifest = []
    for index in range(count):
        camera = CAMERAS[index % len(CAMERAS)] if rng.random() < 0.75 else rng.choice(CAMERAS)
        prefix, extension, folder_name = camera[6]
        folder = os.path.join(directory, "DCIM", f"{100 + index // 200}{folder_name}")
        os.makedirs(folder, exist_ok=True)
        name = f"{prefix}{index + 1:04}{extension}" if prefix != "DSC" else f"DSC{index + 1:05}{extension}"
        large = rng.random() < 0.7
        size = rng.randrange(3_000_000, 5_000_001) if large else rng.randrange(80_000, 600_001)
        with_gps = rng.random() < 0.92
        app1, position = exif_block(rng, camera, index, with_gps, filler)
        width, height = camera[3] if large else (camera[3][0] // 4, camera[3][1] // 4)
        head = b"\xff\xd8" + segment(0xFFE1, app1) + image_headers(width, height, 92)
        body = filler.take(rng, max(size, len(head) + 16_384) - len(head) - 2)
        path = os.path.join(folder, name)
        with open(path, "wb") as handle:
            handle.write(head)
            handle.write(body)
            handle.write(b"\xff\xd9")
        manifest.append({"file": os.path.relpath(path, directory), "size": len(head) + len(body) + 2,
                         "app1": len(app1) + 4, "make": camera[0], "position": position})
        if progress and (index + 1) % 100 == 0:
            progress(index + 1, count)
    return manifest


def make_points(path, count=1_000_000, seed=1):
    """`count` points uniform on the sphere, one `lat,lon` line each (6 decimals, ~0.1 m)."""
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        latitude = math.degrees(math.asin(rng.uniform(-1.0, 1.0)))
        longitude = rng.uniform(-180.0, 180.0)
        lines.append(f"{latitude:.6f},{longitude:.6f}\n")
    with open(path, "w") as handle:
        handle.write("".join(lines))


def remove_stale(cache):
    """Deletes what older versions of this generator left in `cache` (5.8 GB each)."""
    if not os.path.isdir(cache):
        return
    for name in os.listdir(cache):
        if name.startswith(("photos-v", "points-v")) and not name.startswith(
                (f"photos-v{GENERATOR_VERSION}-", f"points-v{GENERATOR_VERSION}-")):
            path = os.path.join(cache, name)
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)


def cached_photos(cache, count, seed, progress=None):
    """The photo folder for (version, count, seed) under `cache`, generated once; and its manifest."""
    remove_stale(cache)
    return generate_photos(os.path.join(cache, f"photos-v{GENERATOR_VERSION}-n{count}-s{seed}"), count, seed, progress)


def generate_photos(root, count, seed, progress=None):
    """ROOT/photos/ (the photos) and ROOT/manifest.json (what each holds), unless already complete."""
    manifest_path = os.path.join(root, "manifest.json")
    if not os.path.exists(manifest_path):
        if os.path.exists(root):
            shutil.rmtree(root)  # an interrupted generation
        manifest = make_photos(os.path.join(root, "photos"), count, seed, progress)
        with open(manifest_path + ".tmp", "w") as handle:
            json.dump({"version": GENERATOR_VERSION, "count": count, "seed": seed, "photos": manifest}, handle)
        os.replace(manifest_path + ".tmp", manifest_path)
    with open(manifest_path) as handle:
        return os.path.join(root, "photos"), json.load(handle)


def cached_points(cache, count, seed):
    remove_stale(cache)
    path = os.path.join(cache, f"points-v{GENERATOR_VERSION}-n{count}-s{seed}.txt")
    if not os.path.exists(path):
        os.makedirs(cache, exist_ok=True)
        make_points(path + ".tmp", count, seed)
        os.replace(path + ".tmp", path)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["photos", "points"])
    parser.add_argument("path")
    parser.add_argument("--count", type=int)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.what == "photos":
        photos, _ = generate_photos(args.path, args.count or 2000, args.seed)
        print(f"photos in {photos}, manifest beside them")
    else:
        make_points(args.path, args.count or 1_000_000, args.seed)


if __name__ == "__main__":
    sys.exit(main())
