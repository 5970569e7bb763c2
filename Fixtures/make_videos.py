#!/usr/bin/env python3
"""Write the video fixtures in Fixtures/videos/.

Usage: python3 Fixtures/make_videos.py

Standard library only. Every byte is written by hand with make_containers.py's box writers:
QuickTime, MP4 and 3GP files with each place a location can be stored (QuickTime keys, udta
©xyz, 3GPP loci, XMP in a uuid box or in udta/XMP_), mvhd creation times of both versions, and
the structural edge cases (64-bit box sizes, size 0, moov after mdat, a truncated moov, meta with
and without its full-box header, files without ftyp). The media data is a few dummy bytes: only
the metadata matters. No timestamps, no randomness: every run writes byte-identical files. The
outputs are committed; the tests never run this script. Files too large to commit (a sparse
multi-gigabyte mdat, a moov past the read limit) are built by Tests/PhotoGPSTests/MovieTests.swift
in a temporary folder. Fixtures/README.md lists every file and its expected outcome.
"""

import os
import struct
import sys

sys.dont_write_bytecode = True  # importing make_containers must not leave Fixtures/__pycache__

from make_containers import NS_EXIF, box, ftyp, full_box, xmp_attributes, xmp_exif_gps, xmp_packet  # noqa: E402

XMP_UUID = bytes.fromhex("be7acfcb97a942e89c71999491e3afac")
EPOCH_1904 = 2_082_844_800  # seconds from 1904-01-01 to 1970-01-01
# 2019-07-01T12:34:56Z in seconds since 1970 (Python: calendar.timegm((2019, 7, 1, 12, 34, 56))).
TIME_2019 = 1_561_984_496


def mvhd(created=0, version=0):
    """mvhd: creation and modification time `created` (seconds since 1904), timescale 1000,
    duration 0, rate 1.0, volume 1.0, identity matrix, next_track_ID 2."""
    matrix = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
    if version == 0:
        times = struct.pack(">IIII", created, created, 1000, 0)
    else:
        times = struct.pack(">QQIQ", created, created, 1000, 0)
    return full_box(b"mvhd", version, 0, times + struct.pack(">IH", 0x10000, 0x0100)
                    + bytes(10) + matrix + bytes(24) + struct.pack(">I", 2))


def trak():
    """A stand-in for a track: a trak holding only a free box (the reader skips traks)."""
    return box(b"trak", box(b"free", bytes(32)))


def keys_meta(items, iso_style=False):
    """A QuickTime metadata meta box: hdlr 'mdta', keys, and ilst with one UTF-8 data box per
    key. `iso_style` writes meta as a full box (4 bytes of version and flags first), as ISO
    files do; QuickTime's own meta has none."""
    hdlr = full_box(b"hdlr", 0, 0, bytes(4) + b"mdta" + bytes(12) + b"\0")
    keys = full_box(b"keys", 0, 0, struct.pack(">I", len(items)) + b"".join(
        struct.pack(">I", 8 + len(key)) + b"mdta" + key.encode() for key, _ in items))
    ilst = box(b"ilst", b"".join(
        struct.pack(">II", 8 + 16 + len(value), index) + box(b"data", struct.pack(">II", 1, 0) + value)
        for index, (_, value) in enumerate(items, start=1)))
    body = hdlr + keys + ilst
    return full_box(b"meta", 0, 0, body) if iso_style else box(b"meta", body)


def xyz(text):
    """udta ©xyz: 16-bit length, 16-bit language (0x15C7, English), the ISO 6709 string."""
    return box(b"\xa9xyz", struct.pack(">HH", len(text), 0x15C7) + text)


def fixed(value):
    """Signed 16.16 fixed point."""
    return struct.pack(">i", round(value * 65536))


def loci(latitude, longitude, altitude, name=b"Sydney Opera House\0"):
    """3GPP loci: full box, language 'eng', name (with its terminator), role 0 (shooting location), longitude,
    latitude, altitude (16.16), astronomical body and notes."""
    language = struct.pack(">H", (ord("e") - 0x60) << 10 | (ord("n") - 0x60) << 5 | (ord("g") - 0x60))
    return full_box(b"loci", 0, 0, language + name + b"\0" + fixed(longitude) + fixed(latitude)
                    + fixed(altitude) + b"earth\0" + b"\0")


def movie(brand, moov_children, before=(), after=(), compatible=None):
    """ftyp, the boxes `before` moov (mdat, wide, free…), moov, then the boxes `after`."""
    head = ftyp(brand, compatible or [brand]) if brand else b""
    return head + b"".join(before) + box(b"moov", b"".join(moov_children)) + b"".join(after)


MDAT = box(b"mdat", bytes(16))
EIFFEL = b"+48.8583+002.2945+035.000/"
CREATED = TIME_2019 + EPOCH_1904


def keys_iso6709():
    """An iPhone-style .mov: ftyp qt, wide, mdat, then moov with mvhd, a track and meta."""
    return movie(b"qt  ", [mvhd(CREATED), trak(), keys_meta([
        ("com.apple.quicktime.location.ISO6709", EIFFEL),
        ("com.apple.quicktime.make", b"Apple"),
        ("com.apple.quicktime.model", b"iPhone 12"),
        ("com.apple.quicktime.creationdate", b"2019-07-01T14:34:56+0200"),
    ])], before=[box(b"wide", b""), MDAT])


def keys_iso_meta():
    """Keys in an ISO-style meta (a full box), in an mp42 file with moov first."""
    return movie(b"mp42", [mvhd(CREATED), keys_meta([
        ("com.apple.quicktime.creationdate", b"2019-07-01T14:34:56.5Z"),
        ("com.apple.quicktime.location.ISO6709", b"+40.6892-074.0445/"),
    ], iso_style=True)], after=[MDAT], compatible=[b"mp42", b"isom"])


def udta_xyz():
    """Android: udta ©xyz with degrees, no altitude; mvhd version 0 gives the time."""
    return movie(b"isom", [mvhd(CREATED), trak(), box(b"udta", xyz(b"+35.6586+139.7454/"))],
                 before=[MDAT], compatible=[b"isom", b"mp42"])


def xyz_file(text):
    return lambda: movie(b"mp42", [mvhd(), box(b"udta", xyz(text))], after=[MDAT])


def loci_3gp():
    """3GPP loci with mvhd version 1 (64-bit times)."""
    return movie(b"3gp5", [mvhd(CREATED, version=1), box(b"udta", loci(-33.8568, 151.2153, 5.5))],
                 after=[MDAT], compatible=[b"3gp5", b"isom"])


def loci_utf16():
    """loci whose name is UTF-16 with a byte-order mark (and its two-byte terminator)."""
    name = b"\xfe\xff" + "Sydney".encode("utf-16-be") + b"\0\0"
    return movie(b"3gp4", [mvhd(), box(b"udta", loci(-33.8568, 151.2153, 0, name=name))], after=[MDAT])


def xmp_uuid():
    """XMP in a top-level uuid box after moov (and mdat before it), as Adobe tools write it."""
    packet = xmp_exif_gps("51,30.0N", "0,7.5W")
    return movie(b"mp42", [mvhd(CREATED)], before=[MDAT], after=[box(b"uuid", XMP_UUID + packet)])


def xmp_udta():
    """XMP in moov/udta/XMP_, as older QuickTime writers put it."""
    packet = xmp_exif_gps("41,24.12N", "2,10.26E", ("exif:GPSAltitude", "12/1"))
    return movie(b"qt  ", [mvhd(), box(b"udta", box(b"XMP_", packet))], after=[MDAT])


def precedence():
    """Every kind at once, each with a different place: the keys must win."""
    packet = xmp_exif_gps("10,0.0N", "10,0.0E")
    return movie(b"qt  ", [mvhd(), keys_meta([("com.apple.quicktime.location.ISO6709", b"+01.0000+001.0000/")]),
                           box(b"udta", xyz(b"+02.0000+002.0000/") + loci(3, 3, 0) + box(b"XMP_", packet))],
                 after=[MDAT])


def keys_zero_then_xyz():
    """The keys hold the 0/0 placeholder, ©xyz a real place: ©xyz is used, with a warning."""
    return movie(b"qt  ", [mvhd(), keys_meta([("com.apple.quicktime.location.ISO6709", b"+00.0000+000.0000/")]),
                           box(b"udta", xyz(b"-22.9519-043.2105/"))], after=[MDAT])


def bad_xyz_then_loci():
    """©xyz is broken, loci is valid: loci is used, with the ©xyz warning."""
    return movie(b"3gp6", [mvhd(), box(b"udta", xyz(b"48.8583+002.2945/") + loci(-33.8568, 151.2153, 0))],
                 after=[MDAT])


def mdat_64bit():
    """mdat with a 64-bit size (size field 1), then moov at the end."""
    mdat = struct.pack(">I4sQ", 1, b"mdat", 16 + 24) + bytes(24)
    return movie(b"isom", [mvhd(), box(b"udta", xyz(b"+64.1419-021.9267/"))], before=[mdat])


def moov_size_zero():
    """moov is the last box and its size is 0: it runs to the end of the file."""
    body = mvhd() + box(b"udta", xyz(b"+55.7539+037.6208/"))
    return ftyp(b"mp42", [b"mp42"]) + MDAT + struct.pack(">I", 0) + b"moov" + body


def truncated_moov():
    """moov declares 200 bytes more than the file holds."""
    data = movie(b"mp42", [mvhd(), box(b"udta", xyz(b"+55.7539+037.6208/"))], before=[MDAT])
    start = data.index(b"moov") - 4
    size = struct.unpack(">I", data[start:start + 4])[0]
    return data[:start] + struct.pack(">I", size + 200) + data[start + 4:]


def no_ftyp_quicktime():
    """An old QuickTime file: no ftyp, it starts with moov."""
    return movie(None, [mvhd(), keys_meta([("com.apple.quicktime.location.ISO6709", b"+37.8199-122.4783+067/")])],
                 after=[MDAT])


def no_location():
    return movie(b"isom", [mvhd(CREATED), trak()], after=[MDAT])


def no_moov():
    """A recording cut off before its moov was written: ftyp and mdat only."""
    return ftyp(b"mp42", [b"mp42"]) + MDAT


def xmp_uuid_in_moov_no_gps():
    """An XMP uuid box inside moov whose packet has no GPS: no position, and no warning."""
    packet = xmp_packet(xmp_attributes("", [NS_EXIF], [("exif:DateTimeOriginal", "2019-07-01T14:34:56")]))
    return movie(b"M4V ", [mvhd(), box(b"uuid", XMP_UUID + packet)], after=[MDAT])


FIXTURES = [
    ("keys-iso6709.mov", keys_iso6709),
    ("keys-iso-meta.mp4", keys_iso_meta),
    ("udta-xyz.mp4", udta_xyz),
    ("xyz-minutes.mp4", xyz_file(b"+4851.498+00217.670/")),
    ("xyz-seconds.mp4", xyz_file(b"+485129.88-0001730.2+035.5/")),
    ("xyz-crs.mp4", xyz_file(b"+48.8583+002.2945+35CRSWGS_84/")),
    ("xyz-no-slash.mp4", xyz_file(b"+48.8583+002.2945")),
    ("xyz-missing-sign.mp4", xyz_file(b"+48.8583002.2945/")),
    ("xyz-trailing-garbage.mp4", xyz_file(b"+48.8583+002.2945/abc")),
    ("xyz-zero-zero.mp4", xyz_file(b"+00.0000+000.0000/")),
    ("xyz-minutes-60.mp4", xyz_file(b"+4860.000+00217.670/")),
    ("xyz-latitude-91.mp4", xyz_file(b"+91.0000+002.2945/")),
    ("loci.3gp", loci_3gp),
    ("loci-utf16-name.3gp", loci_utf16),
    ("xmp-uuid.mp4", xmp_uuid),
    ("xmp-udta.mov", xmp_udta),
    ("xmp-uuid-no-gps.m4v", xmp_uuid_in_moov_no_gps),
    ("precedence.mov", precedence),
    ("keys-zero-then-xyz.mov", keys_zero_then_xyz),
    ("bad-xyz-then-loci.3gp", bad_xyz_then_loci),
    ("mdat-64bit.mp4", mdat_64bit),
    ("moov-size-zero.mp4", moov_size_zero),
    ("truncated-moov.mp4", truncated_moov),
    ("no-ftyp.mov", no_ftyp_quicktime),
    ("no-location.mp4", no_location),
    ("no-moov.mp4", no_moov),
]


def main():
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "videos")
    os.makedirs(folder, exist_ok=True)
    names = [name for name, _ in FIXTURES]
    assert len(set(names)) == len(names), "duplicate file name"
    for name, make in FIXTURES:
        data = make()
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
        print(f"{len(data):6d}  videos/{name}")


if __name__ == "__main__":
    main()
