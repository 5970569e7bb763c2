#!/usr/bin/env python3
"""Write the test photos in Fixtures/photos/.

Usage: python3 Fixtures/make_photos.py

Standard library only. Every byte is written by hand here: the JPEG markers, the EXIF
(TIFF) structure and a tiny 8x8 grey baseline image. There are no timestamps and no
randomness, so every run writes byte-identical files. The outputs are committed; the
tests and CI read them and never run this script.

Each fixture is one entry in PHOTOS below. A TIFF tag is written as
(name, type, value): value is a str for ASCII (the NUL is added and counted), a list of
ints for BYTE/SHORT/LONG, and a list of (numerator, denominator) pairs for RATIONAL and
SRATIONAL, written exactly as given (no reduction, zero denominators allowed).
"""

import os
import struct

# TIFF field types.
BYTE, ASCII, SHORT, LONG, RATIONAL, SRATIONAL = 1, 2, 3, 4, 5, 10

TAG_NUMBERS = {
    # IFD0
    "Make": 0x010F,
    "Model": 0x0110,
    "ExifIFDPointer": 0x8769,
    "GPSInfoIFDPointer": 0x8825,
    # Exif IFD
    "DateTimeOriginal": 0x9003,
    "OffsetTimeOriginal": 0x9011,
    # GPS IFD
    "GPSVersionID": 0x0000,
    "GPSLatitudeRef": 0x0001,
    "GPSLatitude": 0x0002,
    "GPSLongitudeRef": 0x0003,
    "GPSLongitude": 0x0004,
    "GPSAltitudeRef": 0x0005,
    "GPSAltitude": 0x0006,
    "GPSTimeStamp": 0x0007,
    "GPSSpeedRef": 0x000C,
    "GPSSpeed": 0x000D,
    "GPSImgDirectionRef": 0x0010,
    "GPSImgDirection": 0x0011,
    "GPSMapDatum": 0x0012,
    "GPSDateStamp": 0x001D,
    "GPSHPositioningError": 0x001F,
}

VERSION = ("GPSVersionID", BYTE, [2, 3, 0, 0])


def lat(ref, *dms, kind=RATIONAL):
    """GPSLatitudeRef + GPSLatitude; ref None leaves the ref tag out."""
    tags = [] if ref is None else [("GPSLatitudeRef", ASCII, ref)]
    return tags + [("GPSLatitude", kind, list(dms))]


def lon(ref, *dms, kind=RATIONAL):
    """GPSLongitudeRef + GPSLongitude."""
    return [("GPSLongitudeRef", ASCII, ref), ("GPSLongitude", kind, list(dms))]


def alt(ref, value):
    """GPSAltitudeRef (0 above, 1 below sea level) + GPSAltitude."""
    return [("GPSAltitudeRef", BYTE, [ref]), ("GPSAltitude", RATIONAL, [value])]


def gps_time(h, m, s):
    return [("GPSTimeStamp", RATIONAL, [h, m, s])]


def gps_date(text):
    return [("GPSDateStamp", ASCII, text)]


CAMERA = [("Make", ASCII, "PhotoTag"), ("Model", ASCII, "Fixture Camera")]

# Arbitrary payloads for APP7/APP8/APP9, 20 bytes each, the way some phones write them.
APP7_9 = [
    (0xE7, b"APP7 phone maker 0x7"),
    (0xE8, b"APP8 phone maker 0x8"),
    (0xE9, b"APP9 phone maker 0x9"),
]

XMP = (
    b"http://ns.adobe.com/xap/1.0/\0"
    + '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>'.encode("utf-8")
    + b'<x:xmpmeta xmlns:x="adobe:ns:meta/">'
    b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
    b'<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">'
    b"<xmp:CreatorTool>phototag make_photos.py</xmp:CreatorTool>"
    b"</rdf:Description></rdf:RDF></x:xmpmeta>"
    b'<?xpacket end="r"?>'
)

# Keys of a PHOTOS entry:
#   name     file name in photos/
#   order    "II" (little-endian) or "MM" (big-endian) TIFF
#   ifd0     extra IFD0 tags (the Exif and GPS pointers are added when exif/gps are given)
#   exif     Exif IFD tags (omit: no Exif IFD, no pointer)
#   gps      GPS IFD tags (omit: no GPS IFD, no pointer)
#   next     next-IFD offsets {"ifd0": n, "gps": n} (default 0)
#   before   (marker, payload) segments written between SOI and the EXIF APP1
#   jfif     True: a JFIF APP0 right after SOI
#   exif_payload  raw APP1 payload instead of a TIFF built from the tags
#   fill     number of extra 0xFF fill bytes before every marker after SOI
#   cut      (source name, "app1+N" | "after-app1"): a truncated copy of an earlier file
#   raw      the whole file, as is
PHOTOS = [
    # Eiffel Tower, every tag present.
    dict(name="ne-little-endian.jpg", order="II", ifd0=CAMERA,
         exif=[("DateTimeOriginal", ASCII, "2019:07:01 14:34:56"),
               ("OffsetTimeOriginal", ASCII, "+02:00")],
         gps=[VERSION, *lat("N", (48, 1), (51, 1), (2960, 100)),
              *lon("E", (2, 1), (17, 1), (4020, 100)), *alt(0, (71, 2)),
              *gps_time((12, 1), (34, 1), (5624, 100)), *gps_date("2019:07:01"),
              ("GPSMapDatum", ASCII, "WGS-84"),
              ("GPSImgDirectionRef", ASCII, "T"), ("GPSImgDirection", RATIONAL, [(2625, 10)]),
              ("GPSSpeedRef", ASCII, "K"), ("GPSSpeed", RATIONAL, [(36, 10)]),
              ("GPSHPositioningError", RATIONAL, [(5, 1)])]),
    # Rio de Janeiro, big-endian, date with dashes on a leap day.
    dict(name="sw-big-endian.jpg", order="MM", ifd0=CAMERA,
         gps=[VERSION, *lat("S", (22, 1), (57, 1), (673, 100)),
              *lon("W", (43, 1), (12, 1), (3775, 100)), *alt(0, (700, 1)),
              *gps_time((9, 1), (5, 1), (0, 1)), *gps_date("2020-02-29")]),
    # San Francisco, degrees + decimal minutes.
    dict(name="decimal-minutes.jpg", order="II",
         gps=[VERSION, *lat("N", (37, 1), (46494, 1000), (0, 1)),
              *lon("W", (122, 1), (25164, 1000), (0, 1))]),
    # London, decimal degrees.
    dict(name="decimal-degrees.jpg", order="MM",
         gps=[VERSION, *lat("N", (515757623, 10000000), (0, 1), (0, 1)),
              *lon("W", (15678859, 10000000), (0, 1), (0, 1))]),
    # Tokyo, one component per axis (count 1).
    dict(name="one-component.jpg", order="II",
         gps=[VERSION, *lat("N", (3512, 100)), *lon("E", (13975, 100))]),
    # Sydney, SRATIONAL with negative numerators; ref E disagrees with the sign.
    dict(name="srational-negative.jpg", order="II",
         gps=[VERSION, *lat("S", (-33, 1), (-51, 1), (-5400, 100), kind=SRATIONAL),
              *lon("E", (-151, 1), (-12, 1), (-3600, 100), kind=SRATIONAL)]),
    dict(name="zero-denominator-seconds.jpg", order="II",
         gps=[VERSION, *lat("N", (48, 1), (51, 1), (0, 0)),
              *lon("E", (2, 1), (17, 1), (4020, 100))]),
    dict(name="missing-ref.jpg", order="II",
         gps=[VERSION, *lat(None, (48, 1), (51, 1), (2960, 100)),
              *lon("E", (2, 1), (17, 1), (4020, 100))]),
    # The "no fix" placeholder.
    dict(name="zero-zero.jpg", order="II",
         gps=[VERSION, *lat("N", (0, 1), (0, 1), (0, 1)), *lon("E", (0, 1), (0, 1), (0, 1)),
              *gps_time((0, 1), (0, 1), (0, 1))]),
    dict(name="latitude-213.jpg", order="MM",
         gps=[VERSION, *lat("N", (213, 1), (38, 1), (2400, 100)),
              *lon("E", (103, 1), (28, 1), (4800, 100))]),
    # Dead Sea shore.
    dict(name="altitude-below-sea-level.jpg", order="II",
         gps=[VERSION, *lat("N", (31, 1), (30, 1), (0, 1)), *lon("E", (35, 1), (28, 1), (48, 1)),
              *alt(1, (43050, 100))]),
    # Amsterdam; -5 stored in an unsigned RATIONAL.
    dict(name="altitude-wrapped.jpg", order="II",
         gps=[VERSION, *lat("N", (52, 1), (22, 1), (0, 1)), *lon("E", (4, 1), (53, 1), (0, 1)),
              *alt(0, (0xFFFFFFFB, 1))]),
    dict(name="gps-time-without-date.jpg", order="II",
         gps=[VERSION, *lat("N", (51, 1), (50, 1), (4800, 100)),
              *lon("W", (3, 1), (20, 1), (1600, 100)), *gps_time((14, 1), (50, 1), (1, 1))]),
    # Madrid; month 13.
    dict(name="gps-date-invalid.jpg", order="II",
         gps=[VERSION, *lat("N", (40, 1), (24, 1), (0, 1)), *lon("W", (3, 1), (42, 1), (0, 1)),
              *gps_time((10, 1), (0, 1), (0, 1)), *gps_date("2014:13:45")]),
    # Latitude exactly 0 (Kenya, on the equator).
    dict(name="equator.jpg", order="II",
         gps=[VERSION, *lat("N", (0, 1), (0, 1), (0, 1)), *lon("E", (36, 1), (49, 1), (0, 1))]),
    dict(name="gps-ifd-empty.jpg", order="MM", gps=[VERSION]),
    dict(name="exif-without-gps.jpg", order="II",
         ifd0=[("Make", ASCII, "PhotoTag"), ("Model", ASCII, "No GPS Camera")],
         exif=[("DateTimeOriginal", ASCII, "2021:05:06 07:08:09")]),
    dict(name="no-exif.jpg", jfif=True),
    # Beijing; APP7-APP9 before APP1.
    dict(name="app7-before-app1.jpg", order="II", before=APP7_9,
         gps=[VERSION, *lat("N", (39, 1), (54, 1), (3600, 100)),
              *lon("E", (116, 1), (23, 1), (2400, 100))]),
    # Tokyo Tower; the first APP1 is XMP.
    dict(name="xmp-before-exif.jpg", order="II", before=[(0xE1, XMP)],
         gps=[VERSION, *lat("N", (35, 1), (39, 1), (3100, 100)),
              *lon("E", (139, 1), (42, 1), (1000, 100))]),
    # 40 bytes after the APP1 length field: inside IFD0, before any GPS data.
    dict(name="truncated-in-exif.jpg", cut=("ne-little-endian.jpg", "app1+40")),
    dict(name="truncated-after-exif.jpg", cut=("ne-little-endian.jpg", "after-app1")),
    dict(name="empty.jpg", raw=b""),
    dict(name="not-a-jpeg.jpg", raw=b"this is not a JPEG file\n"),
    dict(name="exif-garbage.jpg", exif_payload=b"Exif\0\0" + b"XX" + bytes(range(62))),
    # IFD0 and the GPS IFD both say "next IFD at offset 8" (IFD0 itself).
    dict(name="ifd-loop.jpg", order="II", next={"ifd0": 8, "gps": 8},
         gps=[VERSION, *lat("N", (10, 1), (0, 1), (0, 1)), *lon("E", (20, 1), (0, 1), (0, 1))]),
    # decimal-minutes.jpg with two extra 0xFF fill bytes before every marker after SOI.
    dict(name="fill-bytes.jpg", order="II", fill=2,
         gps=[VERSION, *lat("N", (37, 1), (46494, 1000), (0, 1)),
              *lon("W", (122, 1), (25164, 1000), (0, 1))]),
]


# ---------------------------------------------------------------------------------------
# TIFF / EXIF


def encode_value(endian, kind, value):
    """Return (count, bytes) of one tag value."""
    if kind == ASCII:
        data = value.encode("ascii") + b"\0"
        return len(data), data
    if kind == BYTE:
        return len(value), bytes(value)
    if kind in (SHORT, LONG):
        fmt = "H" if kind == SHORT else "I"
        return len(value), b"".join(struct.pack(endian + fmt, v) for v in value)
    if kind in (RATIONAL, SRATIONAL):
        fmt = "II" if kind == RATIONAL else "ii"
        return len(value), b"".join(struct.pack(endian + fmt, n, d) for n, d in value)
    raise ValueError(f"unsupported field type {kind}")


def ifd_size(endian, entries):
    """Bytes taken by an IFD and its data area (every value word aligned)."""
    size = 2 + 12 * len(entries) + 4
    for _, kind, value in entries:
        _, data = encode_value(endian, kind, value)
        if len(data) > 4:
            size += len(data) + len(data) % 2
    return size


def write_ifd(endian, entries, offset, next_offset=0):
    """One IFD at `offset` (from the TIFF header start), entries sorted by tag, data after."""
    entries = sorted(entries, key=lambda e: TAG_NUMBERS[e[0]])
    numbers = [TAG_NUMBERS[e[0]] for e in entries]
    assert len(set(numbers)) == len(numbers), f"duplicate tag in {numbers}"
    data_offset = offset + 2 + 12 * len(entries) + 4
    table, area = b"", b""
    for name, kind, value in entries:
        count, data = encode_value(endian, kind, value)
        if len(data) <= 4:
            field = data.ljust(4, b"\0")
        else:
            field = struct.pack(endian + "I", data_offset + len(area))
            area += data + b"\0" * (len(data) % 2)
        table += struct.pack(endian + "HHI", TAG_NUMBERS[name], kind, count) + field
    out = struct.pack(endian + "H", len(entries)) + table
    out += struct.pack(endian + "I", next_offset) + area
    assert len(out) == ifd_size(endian, entries)
    return out


def build_tiff(photo):
    """TIFF header, IFD0, then the Exif IFD and the GPS IFD, each followed by its data."""
    order = photo["order"]
    endian = "<" if order == "II" else ">"
    nexts = photo.get("next", {})
    exif, gps = photo.get("exif"), photo.get("gps")
    ifd0 = list(photo.get("ifd0", []))
    if exif is not None:
        ifd0.append(("ExifIFDPointer", LONG, [0]))
    if gps is not None:
        ifd0.append(("GPSInfoIFDPointer", LONG, [0]))
    ifd0_offset = 8
    exif_offset = ifd0_offset + ifd_size(endian, ifd0)
    gps_offset = exif_offset + (ifd_size(endian, exif) if exif is not None else 0)
    pointers = {"ExifIFDPointer": exif_offset, "GPSInfoIFDPointer": gps_offset}
    ifd0 = [(n, t, [pointers[n]]) if n in pointers else (n, t, v) for n, t, v in ifd0]

    header = (b"II*\0" if order == "II" else b"MM\0*") + struct.pack(endian + "I", ifd0_offset)
    out = header + write_ifd(endian, ifd0, ifd0_offset, nexts.get("ifd0", 0))
    if exif is not None:
        assert len(out) == exif_offset
        out += write_ifd(endian, exif, exif_offset)
    if gps is not None:
        assert len(out) == gps_offset
        out += write_ifd(endian, gps, gps_offset, nexts.get("gps", 0))
    return out


# ---------------------------------------------------------------------------------------
# JPEG


def marker(code, fill=0):
    return b"\xff" * fill + bytes([0xFF, code])


def segment(code, payload, fill=0):
    assert len(payload) + 2 <= 0xFFFF
    return marker(code, fill) + struct.pack(">H", len(payload) + 2) + payload


JFIF = b"JFIF\0" + bytes([1, 1, 0]) + struct.pack(">HH", 1, 1) + bytes([0, 0])


def image(fill=0):
    """A baseline 8x8 one-component (grey) image: every pixel 128.

    Quantisation table of ones; Huffman tables with a single 1-bit code each (DC symbol 0 =
    difference 0, AC symbol 0x00 = end of block). The one block is "0" (DC) "0" (EOB),
    padded with 1 bits: 0b00111111.
    """
    dqt = bytes([0x00]) + bytes([1] * 64)
    sof0 = struct.pack(">BHHB", 8, 8, 8, 1) + bytes([1, 0x11, 0])
    one_code = bytes([1] + [0] * 15)
    dht = bytes([0x00]) + one_code + bytes([0x00]) + bytes([0x10]) + one_code + bytes([0x00])
    sos = bytes([1, 1, 0x00, 0, 63, 0])
    return (segment(0xDB, dqt, fill) + segment(0xC0, sof0, fill) + segment(0xC4, dht, fill)
            + segment(0xDA, sos, fill) + b"\x3f" + marker(0xD9, fill))


def app1_end(data):
    """Offset just past the first APP1 segment of a file built here."""
    assert data[:4] == b"\xff\xd8\xff\xe1"
    return 4 + struct.unpack(">H", data[4:6])[0]


def build(photo, built):
    if "raw" in photo:
        return photo["raw"]
    if "cut" in photo:
        source, where = photo["cut"]
        data = built[source]
        if where == "after-app1":
            return data[:app1_end(data)]
        assert where.startswith("app1+")
        cut = 6 + int(where[len("app1+"):])  # SOI, FFE1, length field, then N bytes
        assert cut < app1_end(data)
        return data[:cut]
    fill = photo.get("fill", 0)
    out = marker(0xD8)
    if photo.get("jfif"):
        out += segment(0xE0, JFIF, fill)
    for code, payload in photo.get("before", []):
        out += segment(code, payload, fill)
    if "exif_payload" in photo:
        out += segment(0xE1, photo["exif_payload"], fill)
    elif "order" in photo:
        out += segment(0xE1, b"Exif\0\0" + build_tiff(photo), fill)
    return out + image(fill)


def main():
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "photos")
    os.makedirs(folder, exist_ok=True)
    built = {}
    for photo in PHOTOS:
        name = photo["name"]
        assert name not in built, f"duplicate name {name}"
        built[name] = build(photo, built)
        with open(os.path.join(folder, name), "wb") as f:
            f.write(built[name])
        print(f"{len(built[name]):6d}  photos/{name}")


if __name__ == "__main__":
    main()
