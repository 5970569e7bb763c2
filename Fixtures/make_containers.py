#!/usr/bin/env python3
"""Write the container and XMP fixtures in Fixtures/photos/.

Usage: python3 Fixtures/make_containers.py

Standard library only (struct, zlib for CRC-32 and Adler-32). Like make_photos.py, every byte
is written by hand: ISO BMFF boxes (HEIC, AVIF, CR3, MP4), PNG chunks, RIFF/WebP chunks, TIFF
files (TIFF, DNG, ORF, RW2, BigTIFF) and JPEGs with XMP. The EXIF blocks come from
make_photos.py's TIFF writer (build_tiff, write_ifd) and the JPEGs end in its 8x8 grey image.
There are no timestamps and no randomness, so every run writes byte-identical files. The
outputs are committed; the tests and CI read them and never run this script.

The image data inside the containers is deliberately tiny. The PNGs (1x1 grey), the WebP
bitstreams (1x1 VP8L and 1x1 VP8), the TIFF strips and the JPEGs decode; the HEIC/AVIF/CR3
image items are dummy bytes, since only the metadata structure matters here.

Each fixture is one entry in FIXTURES at the bottom: a file name and a function that returns
its bytes. Fixtures/README.md documents every file and its expected outcome.
"""

import os
import struct
import sys
import zlib

sys.dont_write_bytecode = True  # importing make_photos must not leave Fixtures/__pycache__

import make_photos  # noqa: E402  (the sibling script; its main() does not run on import)
from make_photos import (ASCII, BYTE, LONG, RATIONAL, SHORT, VERSION,  # noqa: E402
                         alt, build_tiff, encode_value, gps_date, gps_time, ifd_size, image,
                         lat, lon, marker, segment, write_ifd)

# Tags used here but not by make_photos.py. write_ifd looks names up in make_photos's table,
# so they are added there; adding names changes none of make_photos.py's outputs.
EXTRA_TAGS = {
    "NewSubfileType": 0x00FE,
    "ImageWidth": 0x0100,
    "ImageLength": 0x0101,
    "BitsPerSample": 0x0102,
    "Compression": 0x0103,
    "PhotometricInterpretation": 0x0106,
    "StripOffsets": 0x0111,
    "SamplesPerPixel": 0x0115,
    "RowsPerStrip": 0x0116,
    "StripByteCounts": 0x0117,
    "XResolution": 0x011A,
    "YResolution": 0x011B,
    "ResolutionUnit": 0x0128,
    "SubIFDs": 0x014A,
    "DNGVersion": 0xC612,
    "DNGBackwardVersion": 0xC613,
    "UniqueCameraModel": 0xC614,
}
for _name, _number in EXTRA_TAGS.items():
    assert make_photos.TAG_NUMBERS.setdefault(_name, _number) == _number, _name


def exif_tiff(order, gps=None, ifd0=(), exif=None):
    """A complete EXIF TIFF block (header, IFD0 with pointers, Exif IFD, GPS IFD)."""
    photo = dict(order=order, ifd0=list(ifd0))
    if gps is not None:
        photo["gps"] = gps
    if exif is not None:
        photo["exif"] = exif
    return build_tiff(photo)


def gps_dms(lat_ref, lat_dms, lon_ref, lon_dms, extra=()):
    """GPS IFD tags: GPSVersionID, refs, RATIONAL[3] latitude and longitude, then extra."""
    return [VERSION, *lat(lat_ref, *lat_dms), *lon(lon_ref, *lon_dms), *extra]


def dms(d, m, s, s_den=1):
    """Whole degrees and minutes, seconds as s/s_den."""
    return (d, 1), (m, 1), (s, s_den)


# ---------------------------------------------------------------------------------------
# ISO BMFF (HEIF, HEIC, AVIF, CR3, MP4): big-endian size + type boxes


def box(kind, payload):
    assert len(kind) == 4
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def full_box(kind, version, flags, payload):
    return box(kind, struct.pack(">I", version << 24 | flags) + payload)


def ftyp(major, compatible, minor=0):
    return box(b"ftyp", major + struct.pack(">I", minor) + b"".join(compatible))


def uint(size, value):
    """An unsigned big-endian integer of 0, 4 or 8 bytes (iloc field sizes)."""
    return {0: lambda v: b"", 4: lambda v: struct.pack(">I", v),
            8: lambda v: struct.pack(">Q", v)}[size](value)


HDLR_PICT = full_box(b"hdlr", 0, 0, struct.pack(">I", 0) + b"pict" + bytes(12) + b"\0")


def pitm(item_id):
    return full_box(b"pitm", 0, 0, struct.pack(">H", item_id))


def infe(item_id, item_type):
    """infe version 2: item_ID u16, protection index u16, item_type, empty item_name."""
    return full_box(b"infe", 2, 0, struct.pack(">HH", item_id, 0) + item_type + b"\0")


def iinf(version, entries):
    count = struct.pack(">H" if version == 0 else ">I", len(entries))
    return full_box(b"iinf", version, 0, count + b"".join(entries))


def iref_cdsc(from_id, to_id):
    """The Exif item describes ('cdsc') the image item, as phones write it."""
    return full_box(b"iref", 0, 0, box(b"cdsc", struct.pack(">HHH", from_id, 1, to_id)))


def iprp_ispe(item_id):
    """One ispe property (1x1) associated with the image item."""
    ipco = box(b"ipco", full_box(b"ispe", 0, 0, struct.pack(">II", 1, 1)))
    ipma = full_box(b"ipma", 0, 0, struct.pack(">IHBB", 1, item_id, 1, 0x01))
    return box(b"iprp", ipco + ipma)


def iloc(version, offset_size, length_size, base_offset_size, items):
    """items: (item_ID, construction_method, base_offset, [(extent_offset, extent_length)]).

    index_size is always 0 (no extent_index). construction_method is only written for
    versions 1 and 2 (version 0 has no such field and means "file offset").
    """
    id_format = ">H" if version < 2 else ">I"
    out = bytes([offset_size << 4 | length_size, base_offset_size << 4 | 0])
    out += struct.pack(id_format, len(items))
    for item_id, method, base_offset, extents in items:
        out += struct.pack(id_format, item_id)
        if version in (1, 2):
            out += struct.pack(">H", method)
        else:
            assert method == 0
        out += struct.pack(">H", 0)  # data_reference_index: this file
        out += uint(base_offset_size, base_offset)
        out += struct.pack(">H", len(extents))
        for offset, length in extents:
            out += uint(offset_size, offset) + uint(length_size, length)
    return full_box(b"iloc", version, 0, out)


def heif_exif_item(tiff_header_offset, prefix, tiff):
    """An Exif item: u32 exif_tiff_header_offset, then (prefix +) the TIFF."""
    assert len(prefix) == tiff_header_offset
    return struct.pack(">I", tiff_header_offset) + prefix + tiff


def two_pass(make):
    """make(mdat_payload_start) -> (head, mdat_payload). Offsets in the head depend on where
    the mdat payload starts, and the head's length does not depend on them."""
    head, _ = make(0x10000)  # any start: only the length of this head is used
    start = len(head) + 8
    head, payload = make(start)
    assert len(head) + 8 == start
    return head + box(b"mdat", payload)


HVC1_DATA = b"dummy hvc1 image item bytes"
AV01_DATA = b"dummy av01 image item bytes"


def heic_simple(major, compatible, image_type, image_data, exif_item):
    """ftyp, meta (hdlr, pitm, iinf v0, iref, iprp, iloc v0 4/4/0), mdat (image, Exif)."""
    def make(start):
        items = [(1, 0, 0, [(start, len(image_data))])]
        entries = [infe(1, image_type)]
        boxes = []
        if exif_item is not None:
            items.append((2, 0, 0, [(start + len(image_data), len(exif_item))]))
            entries.append(infe(2, b"Exif"))
            boxes.append(iref_cdsc(2, 1))
        meta = full_box(b"meta", 0, 0, HDLR_PICT + pitm(1) + iinf(0, entries) + b"".join(boxes)
                        + iprp_ispe(1) + iloc(0, 4, 4, 0, items))
        return ftyp(major, compatible) + meta, image_data + (exif_item or b"")
    return two_pass(make)


def heic_iloc_v0():
    # Rome, the Colosseum; 12.5 m.
    tiff = exif_tiff("II", gps_dms("N", dms(41, 53, 248, 10), "E", dms(12, 29, 323, 10),
                                   alt(0, (25, 2))))
    return heic_simple(b"heic", [b"mif1", b"heic"], b"hvc1", HVC1_DATA,
                       heif_exif_item(6, b"Exif\0\0", tiff))


def heic_iloc_v1_idat():
    # Lisbon, Belém Tower. The Exif item lives in idat (construction_method 1).
    tiff = exif_tiff("MM", gps_dms("N", dms(38, 41, 308, 10), "W", dms(9, 12, 575, 10)))
    exif_item = heif_exif_item(6, b"Exif\0\0", tiff)
    idat_lead = b"idat lead bytes!"  # the Exif item starts 16 bytes into idat

    def make(start):
        items = [(1, 0, 0, [(start, len(HVC1_DATA))]),
                 (2, 1, 0, [(len(idat_lead), len(exif_item))])]
        meta = full_box(b"meta", 0, 0, HDLR_PICT + pitm(1) + iloc(1, 4, 4, 4, items)
                        + iinf(0, [infe(1, b"hvc1"), infe(2, b"Exif")]) + iref_cdsc(2, 1)
                        + iprp_ispe(1) + box(b"idat", idat_lead + exif_item))
        return ftyp(b"heic", [b"mif1", b"heic"]) + meta, HVC1_DATA
    return two_pass(make)


def heic_iloc_v2_extents():
    # Vienna, St. Stephen's Cathedral; GPS time and date. Exif item in two extents.
    tiff = exif_tiff("MM", gps_dms("N", dms(48, 12, 305, 10), "E", dms(16, 22, 234, 10),
                                   [*gps_time((9, 1), (41, 1), (75, 10)),
                                    *gps_date("2023:05:17")]))
    exif_item = heif_exif_item(0, b"", tiff)
    first, rest = exif_item[:20], exif_item[20:]
    between = b"-- bytes between the two Exif extents --"
    base = 64  # a non-zero base_offset inside the head; extents count from here

    def make(start):
        payload = HVC1_DATA + first + between + rest
        rel = start - base
        items = [(1, 0, base, [(rel, len(HVC1_DATA))]),
                 (2, 0, base, [(rel + len(HVC1_DATA), len(first)),
                               (rel + len(HVC1_DATA) + len(first) + len(between), len(rest))])]
        meta = full_box(b"meta", 0, 0, HDLR_PICT + pitm(1) + iloc(2, 8, 8, 4, items)
                        + iinf(1, [infe(1, b"hvc1"), infe(2, b"Exif")]) + iref_cdsc(2, 1)
                        + iprp_ispe(1))
        return ftyp(b"heic", [b"mif1", b"heic"]) + meta, payload
    data = two_pass(make)
    assert 0 < base < data.index(HVC1_DATA)
    return data


def avif_exif():
    # Prague, Old Town Square; 193.5 m.
    tiff = exif_tiff("II", gps_dms("N", dms(50, 5, 162, 10), "E", dms(14, 25, 169, 10),
                                   alt(0, (1935, 10))))
    return heic_simple(b"avif", [b"avif", b"mif1", b"miaf"], b"av01", AV01_DATA,
                       heif_exif_item(6, b"Exif\0\0", tiff))


def heic_no_exif():
    return heic_simple(b"heic", [b"mif1", b"heic"], b"hvc1", HVC1_DATA, None)


def infe_mime(item_id, content_type):
    """infe version 2 of a 'mime' item: empty item_name, then content_type."""
    return full_box(b"infe", 2, 0, struct.pack(">HH", item_id, 0) + b"mime" + b"\0" + content_type + b"\0")


def heic_xmp_item():
    # Kyoto, Kiyomizu-dera: no Exif item, GPS only in an XMP 'mime' item (application/rdf+xml).
    packet = xmp_exif_gps("34,59.7N", "135,47.1E")

    def make(start):
        items = [(1, 0, 0, [(start, len(HVC1_DATA))]), (2, 0, 0, [(start + len(HVC1_DATA), len(packet))])]
        meta = full_box(b"meta", 0, 0, HDLR_PICT + pitm(1)
                        + iinf(0, [infe(1, b"hvc1"), infe_mime(2, b"application/rdf+xml")])
                        + iref_cdsc(2, 1) + iprp_ispe(1) + iloc(0, 4, 4, 0, items))
        return ftyp(b"heic", [b"mif1", b"heic"]) + meta, HVC1_DATA + packet
    return two_pass(make)


def fuzz_iloc_zero_width_extents():
    """Found by fuzzing: an iloc whose offset and length fields are 0 bytes wide, so extents cost
    no bytes and 300 items x 65,535 extents fit in 2 KB (a loop of 20 million)."""
    out = bytes([0x00, 0x00])  # offset_size 0, length_size 0, base_offset_size 0, reserved
    out += struct.pack(">H", 300)  # item_count
    for item in range(1, 301):  # each: item_ID, data_reference_index, 65,535 extents of 0 bytes
        out += struct.pack(">HHH", item, 0, 0xFFFF)
    meta = full_box(b"meta", 0, 0, HDLR_PICT + pitm(1) + iinf(0, [infe(1, b"hvc1"), infe(2, b"Exif")])
                    + full_box(b"iloc", 0, 0, out))
    return ftyp(b"heic", [b"mif1", b"heic"]) + meta


def fuzz_idat_offset_overflow():
    """Found in review of the fuzzing campaign: an idat item whose base_offset + extent_offset
    is near 2^63, so adding the length overflowed (a crash)."""
    huge = 0x3FFF_FFFF_FFFF_FF00
    out = bytes([8 << 4 | 8, 8 << 4 | 0])  # 8-byte offsets, lengths and base offsets
    out += struct.pack(">H", 1)  # item_count
    out += struct.pack(">HHH", 1, 1, 0)  # item 1, construction_method 1 (idat), data_reference_index
    out += struct.pack(">QH", huge, 1) + struct.pack(">QQ", huge, huge)  # base_offset, 1 huge extent
    meta = full_box(b"meta", 0, 0, HDLR_PICT + iinf(0, [infe(1, b"Exif")]) + full_box(b"iloc", 1, 0, out)
                    + box(b"idat", bytes(16)))
    return ftyp(b"heic", [b"mif1", b"heic"]) + meta


def mvhd():
    """mvhd version 0: times 0, timescale 1000, duration 0, rate 1.0, volume 1.0, identity
    matrix, next_track_ID 1."""
    matrix = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
    return full_box(b"mvhd", 0, 0, struct.pack(">IIIIIH", 0, 0, 1000, 0, 0x10000, 0x0100)
                    + bytes(10) + matrix + bytes(24) + struct.pack(">I", 1))


def mp4_video():
    return ftyp(b"isom", [b"isom", b"mp42"], minor=0x200) + box(b"moov", mvhd()) + box(b"mdat", b"")


CANON_UUID = bytes.fromhex("85c0b687820f11e08111f4ce462b6a48")


def tiff_first_ifd(order, entries):
    """A TIFF whose first IFD (at offset 8) is the given one: how Canon's CMT boxes hold
    IFD0 (CMT1), the Exif IFD (CMT2) and the GPS IFD (CMT4)."""
    endian = "<" if order == "II" else ">"
    header = (b"II*\0" if order == "II" else b"MM\0*") + struct.pack(endian + "I", 8)
    return header + write_ifd(endian, entries, 8)


def cr3_cmt4():
    # Reykjavik, Hallgrímskirkja; 74.5 m.
    cmt1 = tiff_first_ifd("II", [("Make", ASCII, "Canon"), ("Model", ASCII, "Canon EOS R5")])
    cmt2 = tiff_first_ifd("II", [("DateTimeOriginal", ASCII, "2022:08:01 16:20:00")])
    cmt4 = tiff_first_ifd("II", gps_dms("N", dms(64, 8, 31), "W", dms(21, 55, 36),
                                        alt(0, (745, 10))))
    canon = box(b"uuid", CANON_UUID + box(b"CNCV", b"CanonCR3_001/00.10.00/00.00.00")
                + box(b"CMT1", cmt1) + box(b"CMT2", cmt2) + box(b"CMT4", cmt4))
    return (ftyp(b"crx ", [b"crx ", b"isom"], minor=1) + box(b"moov", canon + mvhd())
            + box(b"mdat", b"dummy CRX image data"))


# ---------------------------------------------------------------------------------------
# PNG

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data)))


def zlib_stored(raw):
    """A zlib stream with one stored (uncompressed) deflate block. zlib.compress would do,
    but its bytes can differ between zlib builds (zlib-ng); these cannot."""
    assert len(raw) < 0x10000
    return (b"\x78\x01" + b"\x01" + struct.pack("<HH", len(raw), len(raw) ^ 0xFFFF) + raw
            + struct.pack(">I", zlib.adler32(raw)))


PNG_IHDR = png_chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))  # 1x1 grey 8-bit
PNG_IDAT = png_chunk(b"IDAT", zlib_stored(b"\x00\x80"))  # filter 0, pixel 128
PNG_IEND = png_chunk(b"IEND", b"")


def png(*chunks):
    return PNG_SIGNATURE + PNG_IHDR + b"".join(chunks) + PNG_IEND


def png_exif_before_idat():
    # Cape Town.
    tiff = exif_tiff("MM", gps_dms("S", dms(33, 55, 31), "E", dms(18, 25, 26)))
    return png(png_chunk(b"eXIf", tiff), PNG_IDAT)


def png_exif_after_idat():
    # Buenos Aires, the Obelisco.
    tiff = exif_tiff("II", gps_dms("S", dms(34, 36, 12), "W", dms(58, 22, 54)))
    return png(PNG_IDAT, png_chunk(b"eXIf", tiff))


def png_exif_prefixed():
    # Mumbai, Gateway of India.
    tiff = exif_tiff("MM", gps_dms("N", dms(18, 55, 19), "E", dms(72, 50, 5)))
    return png(png_chunk(b"eXIf", b"Exif\0\0" + tiff), PNG_IDAT)


# ---------------------------------------------------------------------------------------
# XMP

XMP_JPEG_HEADER = b"http://ns.adobe.com/xap/1.0/\0"
NS_EXIF = 'xmlns:exif="http://ns.adobe.com/exif/1.0/"'
NS_DJI = 'xmlns:drone-dji="http://www.dji.com/drone-dji/1.0/"'


def xmp_packet(description):
    """A complete XMP packet around one rdf:Description (given as text)."""
    return ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
            '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n'
            ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
            + description +
            ' </rdf:RDF>\n'
            '</x:xmpmeta>\n'
            '<?xpacket end="w"?>').encode("utf-8")


def xmp_attributes(about, namespaces, attributes):
    """An rdf:Description whose properties are attributes."""
    lines = [f'  <rdf:Description rdf:about="{about}"'] + [f"    {ns}" for ns in namespaces]
    lines += [f'    {name}="{value}"' for name, value in attributes]
    return "\n".join(lines) + "/>\n"


def xmp_exif_gps(latitude, longitude, *more):
    return xmp_packet(xmp_attributes("", [NS_EXIF], [("exif:GPSLatitude", latitude),
                                                     ("exif:GPSLongitude", longitude), *more]))


def xmp_dji(latitude, longitude, *more):
    return xmp_packet(xmp_attributes("DJI Meta Data", [NS_DJI], [
        ("drone-dji:GpsLatitude", latitude), ("drone-dji:GpsLongitude", longitude), *more]))


def png_xmp_itxt():
    # San Francisco, the XMP "DDD,MM.mmmmk" form.
    text = xmp_exif_gps("37,46.494N", "122,25.164W")
    # keyword, NUL, compression flag 0, compression method 0, empty language tag + NUL,
    # empty translated keyword + NUL, then the UTF-8 text.
    itxt = b"XML:com.adobe.xmp\0" + b"\0\0" + b"\0" + b"\0" + text
    return png(png_chunk(b"iTXt", itxt), PNG_IDAT)


# ---------------------------------------------------------------------------------------
# JPEG


def jpeg(*segments):
    """SOI, the given segments, then make_photos.py's 8x8 grey image."""
    return marker(0xD8) + b"".join(segments) + image()


def exif_app1(tiff):
    return segment(0xE1, b"Exif\0\0" + tiff)


def xmp_app1(packet):
    return segment(0xE1, XMP_JPEG_HEADER + packet)


def fuzz_xmp_deep_nesting():
    """Found by fuzzing: an XMP packet of thousands of nested elements (namespace lookups went
    quadratic); it must be rejected quickly as not well-formed."""
    return jpeg(xmp_app1(b'<x:a xmlns:x="adobe:ns:meta/">' + b"<x:a>" * 4000))


def jpeg_named_png():
    # Seoul, Gyeongbokgung; built exactly like make_photos.py's photos.
    return make_photos.build(dict(name="jpeg-named.png", order="II", gps=gps_dms(
        "N", dms(37, 34, 43), "E", dms(126, 58, 38))), {})


def xmp_only():
    # Paris, the Eiffel Tower, in the XMP "DDD,MM.mmmmk" form; 35.5 m.
    return jpeg(xmp_app1(xmp_exif_gps("48,51.4933N", "2,17.67E", ("exif:GPSAltitude", "355/10"),
                                      ("exif:GPSAltitudeRef", "0"))))


DJI_CAMERA = [("Make", ASCII, "DJI"), ("Model", ASCII, "FC3582")]


def xmp_dji_jpeg():
    # Shenzhen. EXIF without a GPS IFD, then DJI XMP.
    tiff = exif_tiff("II", ifd0=DJI_CAMERA,
                     exif=[("DateTimeOriginal", ASCII, "2023:03:14 15:09:26")])
    return jpeg(exif_app1(tiff), xmp_app1(xmp_dji("22.5311", "114.0214",
                                                  ("drone-dji:AbsoluteAltitude", "+120.5"),
                                                  ("drone-dji:RelativeAltitude", "+30.0"))))


def xmp_and_exif():
    # EXIF: Paris, Notre-Dame. XMP: Hamburg. EXIF must win.
    tiff = exif_tiff("II", gps_dms("N", dms(48, 51, 11), "E", dms(2, 20, 59)))
    return jpeg(exif_app1(tiff), xmp_app1(xmp_exif_gps("53,33.05N", "9,59.617E")))


def xmp_elements():
    # Berlin Mitte, in the "DDD,MM,SSk" form, as child elements.
    description = ('  <rdf:Description rdf:about=""\n    ' + NS_EXIF + '>\n'
                   '   <exif:GPSLatitude>52,31,12N</exif:GPSLatitude>\n'
                   '   <exif:GPSLongitude>13,24,36E</exif:GPSLongitude>\n'
                   '  </rdf:Description>\n')
    return jpeg(xmp_app1(xmp_packet(description)))


def xmp_malformed():
    # Cut off inside an attribute value, then junk: a NUL, "<<", an invalid UTF-8 sequence.
    packet = ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
              '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n'
              ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
              '  <rdf:Description rdf:about="" ' + NS_EXIF + ' exif:GPSLatitude="48,51.49N'
              ).encode("utf-8") + b' <rdf:li>>\x00<<"\xc3\x28 =\'junk'
    return jpeg(xmp_app1(packet))


def xmp_invalid_exif():
    # EXIF: Athens with a zero denominator in the latitude minutes. XMP: Toronto, CN Tower.
    tiff = exif_tiff("II", gps_dms("N", ((37, 1), (58, 0), (20, 1)), "E", dms(23, 43, 30)))
    return jpeg(exif_app1(tiff), xmp_app1(xmp_exif_gps("43,38.552N", "79,23.24W")))


def xmp_dji_west():
    # San Francisco, signed decimal degrees, no EXIF.
    return jpeg(xmp_app1(xmp_dji("37.7749", "-122.4194")))


# ---------------------------------------------------------------------------------------
# WebP: RIFF, little-endian sizes, chunks padded to an even size


def riff_chunk(kind, data):
    return kind + struct.pack("<I", len(data)) + data + b"\0" * (len(data) % 2)


def webp(*chunks):
    body = b"WEBP" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def vp8x(flags):
    """VP8X: flags, 3 reserved bytes, canvas width-1 and height-1 (24 bits each): 1x1."""
    return riff_chunk(b"VP8X", bytes([flags, 0, 0, 0]) + bytes(3) + bytes(3))


VP8X_XMP, VP8X_EXIF = 0x04, 0x08


def vp8l_1x1(alpha, red, green, blue):
    """A lossless 1x1 image. Header: signature 0x2F, width-1 and height-1 (14 bits each),
    alpha_is_used 0, version 0. Then: no transform, no colour cache, no meta prefix codes,
    and five "simple" prefix codes with one symbol each (green, red, blue, alpha as 8-bit
    symbols, distance as 1-bit symbol 0). A one-symbol code takes zero bits per pixel, so
    the pixel itself adds no bits. Bits are packed LSB first."""
    fields = [(0, 14), (0, 14), (0, 1), (0, 3), (0, 1), (0, 1), (0, 1)]
    for value in (green, red, blue, alpha):
        fields += [(1, 1), (0, 1), (1, 1), (value, 8)]  # simple, 1 symbol, 8-bit symbol
    fields += [(1, 1), (0, 1), (0, 1), (0, 1)]           # distance: 1-bit symbol 0
    acc = nbits = 0
    for value, width in fields:
        acc |= value << nbits
        nbits += width
    return b"\x2f" + acc.to_bytes((nbits + 7) // 8, "little")


VP8L = riff_chunk(b"VP8L", vp8l_1x1(255, 128, 128, 128))


def vp8_1x1():
    """A lossy 1x1 key frame. Frame tag (key frame, version 0, shown, first partition size),
    start code 9D 01 2A, width 1 and height 1 (scale 0). Both partitions are zero bytes: a
    boolean decoder reads zero bytes as all-zero decisions whatever the probabilities, which
    here means no segmentation, no loop filter, one token partition, quantiser index 0, no
    probability updates, B_PRED with B_DC_PRED sub-blocks and DC_PRED chroma, and every
    block ending at once (no coefficients): a mid-grey pixel."""
    first_partition, tokens = bytes(24), bytes(8)
    tag = 0 | 0 << 1 | 1 << 4 | len(first_partition) << 5
    return (tag.to_bytes(3, "little") + b"\x9d\x01\x2a" + struct.pack("<HH", 1, 1)
            + first_partition + tokens)


def webp_exif():
    # Mexico City, the Zócalo.
    tiff = exif_tiff("MM", gps_dms("N", dms(19, 25, 57), "W", dms(99, 7, 59)))
    return webp(vp8x(VP8X_EXIF), VP8L, riff_chunk(b"EXIF", tiff))


def webp_exif_prefixed():
    # Singapore, the Merlion.
    tiff = exif_tiff("II", gps_dms("N", dms(1, 17, 13), "E", dms(103, 51, 17)))
    return webp(vp8x(VP8X_EXIF), VP8L, riff_chunk(b"EXIF", b"Exif\0\0" + tiff))


def webp_simple():
    return webp(riff_chunk(b"VP8 ", vp8_1x1()))


def webp_xmp():
    # Dubai, Burj Khalifa; DJI signed decimals with explicit plus signs.
    return webp(vp8x(VP8X_XMP), VP8L, riff_chunk(b"XMP ", xmp_dji("+25.197197", "+55.274376")))


# ---------------------------------------------------------------------------------------
# TIFF files


class At:
    """A LONG value that is the file offset of the block named `key`."""

    def __init__(self, key):
        self.key = key


def tiff_file(order, blocks, magic=42, lead=b""):
    """A whole TIFF file. blocks are laid out in order, each on an even offset:
    ("ifd", key, entries) or ("data", key, bytes). IFD values may hold At(key). The first
    IFD is IFD0; `lead` is written between the 8-byte header and the first block."""
    endian = "<" if order == "II" else ">"

    def resolve(entries, offsets):
        return [(n, t, [offsets.get(v.key, 0) if isinstance(v, At) else v for v in value]
                 if isinstance(value, list) else value) for n, t, value in entries]

    offsets, pos = {}, 8 + len(lead)
    for kind, key, content in blocks:
        pos += pos % 2
        offsets[key] = pos
        pos += ifd_size(endian, resolve(content, {})) if kind == "ifd" else len(content)
    ifd0 = next(key for kind, key, _ in blocks if kind == "ifd")
    out = order.encode() + struct.pack(endian + "HI", magic, offsets[ifd0]) + lead
    for kind, key, content in blocks:
        out += b"\0" * (offsets[key] - len(out))
        if kind == "ifd":
            out += write_ifd(endian, resolve(content, offsets), offsets[key])
        else:
            out += content
    return out, offsets


def strip_tags(width, height, strip="strip"):
    """Tags of an uncompressed 8-bit grey image in one strip."""
    return [("ImageWidth", SHORT, [width]), ("ImageLength", SHORT, [height]),
            ("BitsPerSample", SHORT, [8]), ("Compression", SHORT, [1]),
            ("PhotometricInterpretation", SHORT, [1]), ("StripOffsets", LONG, [At(strip)]),
            ("SamplesPerPixel", SHORT, [1]), ("RowsPerStrip", LONG, [height]),
            ("StripByteCounts", LONG, [width * height]),
            ("XResolution", RATIONAL, [(72, 1)]), ("YResolution", RATIONAL, [(72, 1)]),
            ("ResolutionUnit", SHORT, [2])]


POINTERS = [("ExifIFDPointer", LONG, [At("exif")]), ("GPSInfoIFDPointer", LONG, [At("gps")])]
PIXEL = b"\x80"


def tiff_le():
    # Istanbul, Hagia Sophia.
    data, _ = tiff_file("II", [
        ("ifd", "ifd0", strip_tags(1, 1) + [("Make", ASCII, "PhotoTag"),
                                            ("Model", ASCII, "Fixture TIFF")] + POINTERS),
        ("ifd", "exif", [("DateTimeOriginal", ASCII, "2018:04:21 10:11:12")]),
        ("ifd", "gps", gps_dms("N", dms(41, 0, 30), "E", dms(28, 58, 48))),
        ("data", "strip", PIXEL)])
    return data


def fuzz_tiff_long_make():
    """Found in review of the fuzzing campaign: 33,000-byte Make and Model strings. The compact
    block once kept them and put the GPS IFD after them, past libexif's 64 KiB window."""
    data, _ = tiff_file("II", [
        ("ifd", "ifd0", strip_tags(1, 1) + [("Make", ASCII, "M" * 33000), ("Model", ASCII, "X" * 33000),
                                            ("GPSInfoIFDPointer", LONG, [At("gps")])]),
        ("ifd", "gps", gps_dms("N", dms(48, 30, 0), "E", dms(11, 15, 0))),
        ("data", "strip", PIXEL)])
    return data


def tiff_be_gps_beyond_64k():
    # Moscow, Red Square. A 280x250 strip (70,000 bytes), then the Exif and GPS IFDs.
    data, offsets = tiff_file("MM", [
        ("ifd", "ifd0", strip_tags(280, 250) + [("Make", ASCII, "PhotoTag"),
                                                ("Model", ASCII, "Fixture Big TIFF")] + POINTERS),
        ("data", "strip", b"\x80" * 70000),
        ("ifd", "exif", [("DateTimeOriginal", ASCII, "2017:06:12 12:00:00")]),
        ("ifd", "gps", gps_dms("N", dms(55, 45, 15), "E", dms(37, 37, 13)))])
    assert offsets["gps"] > 65536 and offsets["exif"] > 65536
    return data


def dng_like():
    # Vancouver, Gastown.
    data, _ = tiff_file("II", [
        ("ifd", "ifd0", [("NewSubfileType", LONG, [1])] + strip_tags(1, 1, "preview") + [
            ("Make", ASCII, "PhotoTag"), ("Model", ASCII, "Fixture DNG"),
            ("SubIFDs", LONG, [At("raw")]), ("GPSInfoIFDPointer", LONG, [At("gps")]),
            ("DNGVersion", BYTE, [1, 4, 0, 0]), ("DNGBackwardVersion", BYTE, [1, 1, 0, 0]),
            ("UniqueCameraModel", ASCII, "PhotoTag Fixture DNG")]),
        ("ifd", "raw", [("NewSubfileType", LONG, [0])] + strip_tags(1, 1, "rawstrip")),
        ("ifd", "gps", gps_dms("N", dms(49, 17, 2), "W", dms(123, 6, 31))),
        ("data", "preview", PIXEL),
        ("data", "rawstrip", PIXEL)])
    return data


def raw_like(magic, model, gps, lead=b""):
    data, _ = tiff_file("II", [
        ("ifd", "ifd0", strip_tags(1, 1) + [("Make", ASCII, "PhotoTag"), ("Model", ASCII, model),
                                            ("GPSInfoIFDPointer", LONG, [At("gps")])]),
        ("ifd", "gps", gps),
        ("data", "strip", PIXEL)], magic=magic, lead=lead)
    return data


def orf_like():
    # Osaka Castle. Header IIRO (magic 0x4F52).
    return raw_like(0x4F52, "Fixture ORF", gps_dms("N", dms(34, 41, 14), "E", dms(135, 31, 34)))


def rw2_like():
    # Giza, the pyramids. Header IIU\0 (magic 0x0055), IFD0 at 0x18 as Panasonic writes it.
    return raw_like(0x0055, "Fixture RW2", gps_dms("N", dms(29, 58, 45), "E", dms(31, 8, 3)),
                    lead=bytes(16))


LONG8 = 16


def bigtiff():
    """BigTIFF (II, 43, offset size 8, 0, u64 IFD0 offset 16). IFDs: u64 count, 20-byte
    entries (tag, type, u64 count, 8-byte value or offset), u64 next offset; values longer
    than 8 bytes follow the IFD. Oslo City Hall."""
    def ifd(entries, offset):
        entries = sorted(entries, key=lambda e: make_photos.TAG_NUMBERS[e[0]])
        data_offset = offset + 8 + 20 * len(entries) + 8
        table, area = b"", b""
        for name, kind, value in entries:
            if kind == LONG8:
                count, data = len(value), b"".join(struct.pack("<Q", v) for v in value)
            else:
                count, data = encode_value("<", kind, value)
            if len(data) <= 8:
                field = data.ljust(8, b"\0")
            else:
                field = struct.pack("<Q", data_offset + len(area))
                area += data
            table += struct.pack("<HHQ", make_photos.TAG_NUMBERS[name], kind, count) + field
        return struct.pack("<Q", len(entries)) + table + struct.pack("<Q", 0) + area

    gps = gps_dms("N", dms(59, 54, 42), "E", dms(10, 44, 2))

    def build(gps_offset, strip_offset):
        ifd0 = [("ImageWidth", SHORT, [1]), ("ImageLength", SHORT, [1]),
                ("BitsPerSample", SHORT, [8]), ("Compression", SHORT, [1]),
                ("PhotometricInterpretation", SHORT, [1]), ("StripOffsets", LONG8, [strip_offset]),
                ("RowsPerStrip", LONG, [1]), ("StripByteCounts", LONG, [1]),
                ("GPSInfoIFDPointer", LONG8, [gps_offset])]
        out = b"II" + struct.pack("<HHHQ", 43, 8, 0, 16) + ifd(ifd0, 16)
        gps_offset = len(out)
        out += ifd(gps, gps_offset)
        return out, gps_offset

    head, gps_offset = build(0, 0)
    head, again = build(gps_offset, len(head))
    assert again == gps_offset
    return head + PIXEL


# ---------------------------------------------------------------------------------------

FIXTURES = [
    ("heic-iloc-v0.heic", heic_iloc_v0),
    ("heic-iloc-v1-idat.heic", heic_iloc_v1_idat),
    ("heic-iloc-v2-extents.heic", heic_iloc_v2_extents),
    ("avif-exif.avif", avif_exif),
    ("heic-no-exif.heic", heic_no_exif),
    ("heic-xmp-item.heic", heic_xmp_item),
    ("fuzz-iloc-zero-width-extents.heic", fuzz_iloc_zero_width_extents),
    ("fuzz-xmp-deep-nesting.jpg", fuzz_xmp_deep_nesting),
    ("fuzz-idat-offset-overflow.heic", fuzz_idat_offset_overflow),
    ("fuzz-tiff-long-make.tif", fuzz_tiff_long_make),
    ("mp4-video.heic", mp4_video),
    ("cr3-cmt4.cr3", cr3_cmt4),
    ("png-exif-before-idat.png", png_exif_before_idat),
    ("png-exif-after-idat.png", png_exif_after_idat),
    ("png-exif-prefixed.png", png_exif_prefixed),
    ("png-xmp-itxt.png", png_xmp_itxt),
    ("jpeg-named.png", jpeg_named_png),
    ("webp-exif.webp", webp_exif),
    ("webp-exif-prefixed.webp", webp_exif_prefixed),
    ("webp-simple.webp", webp_simple),
    ("webp-xmp.webp", webp_xmp),
    ("tiff-le.tif", tiff_le),
    ("tiff-be-gps-beyond-64k.tif", tiff_be_gps_beyond_64k),
    ("dng-like.dng", dng_like),
    ("orf-like.orf", orf_like),
    ("rw2-like.rw2", rw2_like),
    ("bigtiff.tif", bigtiff),
    ("xmp-only.jpg", xmp_only),
    ("xmp-dji.jpg", xmp_dji_jpeg),
    ("xmp-and-exif.jpg", xmp_and_exif),
    ("xmp-elements.jpg", xmp_elements),
    ("xmp-malformed.jpg", xmp_malformed),
    ("xmp-invalid-exif.jpg", xmp_invalid_exif),
    ("xmp-dji-west.jpg", xmp_dji_west),
]


def main():
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "photos")
    os.makedirs(folder, exist_ok=True)
    names = [name for name, _ in FIXTURES]
    assert len(set(names)) == len(names), "duplicate file name"
    for name, make in FIXTURES:
        data = make()
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
        print(f"{len(data):6d}  photos/{name}")


if __name__ == "__main__":
    main()
