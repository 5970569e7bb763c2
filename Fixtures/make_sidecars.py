#!/usr/bin/env python3
"""Write the sidecar fixtures in Fixtures/sidecars/: a small Google Takeout export and a folder of
XMP sidecars, one file per naming rule phototag pairs.

Usage: python3 Fixtures/make_sidecars.py

Standard library only, no timestamps, no randomness: every run writes byte-identical files. The
outputs are committed; tests read them and never run this script.

Google Takeout (Google Photos) writes, beside each photo, a JSON file with `title`,
`photoTakenTime` {timestamp (UTC seconds, as a string), formatted}, `geoData` and `geoDataExif`
{latitude, longitude, altitude, latitudeSpan, longitudeSpan}; 0.0/0.0 means no position. Its
file names follow these rules, each covered here:

- `NAME.EXT.json`, and since 2024 `NAME.EXT.supplemental-metadata.json`;
- a file name is at most 51 characters: the part before `.json` is cut to 46 characters
  (`NAME.EXT.supplemental-metadata` becomes `NAME.EXT.supplemental-me` or shorter);
- a second photo of the same name is `NAME(1).EXT`, its JSON `NAME.EXT(1).json`;
- an edited copy `NAME-edited.EXT` has no JSON of its own: it shares `NAME.EXT.json`;
- an album's own `metadata.json` describes the album, not a photo.
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "sidecars")

# A JPEG with no metadata at all (SOI, a JFIF APP0, EOI): a photo whose EXIF was removed.
BARE_JPEG = (
    b"\xff\xd8"
    + b"\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    + b"\xff\xd9"
)


def takeout(title, timestamp, geo, geo_exif=None):
    """A Takeout JSON file's text, keys in the order Google writes them."""
    def position(p):
        lat, lon, alt = p
        return {"latitude": lat, "longitude": lon, "altitude": alt, "latitudeSpan": 0.0, "longitudeSpan": 0.0}

    data = {
        "title": title,
        "description": "",
        "imageViews": "3",
        "creationTime": {"timestamp": "1700000000", "formatted": "Nov 14, 2023, 10:13:20 PM UTC"},
        "photoTakenTime": {"timestamp": str(timestamp), "formatted": "(formatted by Google)"},
        "geoData": position(geo),
        "geoDataExif": position(geo_exif or geo),
        "url": "https://photos.google.com/photo/example",
        "googlePhotosOrigin": {"mobileUpload": {"deviceType": "ANDROID_PHONE"}},
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def xmp(attributes="", elements=""):
    """An XMP sidecar: one rdf:Description with the given attributes and child elements."""
    return (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 5.6.0">\n'
        ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
        '  <rdf:Description rdf:about=""\n'
        '    xmlns:exif="http://ns.adobe.com/exif/1.0/"\n'
        '    xmlns:xmp="http://ns.adobe.com/xap/1.0/"\n'
        '    xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"' + attributes + ">\n"
        + elements
        + "  </rdf:Description>\n </rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>\n"
    )


PARIS = (48.8583, 2.2945, 35.0)
BERLIN = (52.5163, 13.3777, 34.0)
ROME = (41.8902, 12.4922, 21.0)
MADRID = (40.4169, -3.7035, 650.0)
NONE = (0.0, 0.0, 0.0)
LONG = "PXL_20190704_183015123.PORTRAIT-01.COVER_Family.jpg"  # 51 characters
LONG2 = "IMG_20190705_101010_top_of_hill.jpg"  # 35 characters

FILES = {
    # The Takeout export: one album folder.
    "takeout/Photos from 2019/IMG_0001.jpg": BARE_JPEG,
    "takeout/Photos from 2019/IMG_0001.jpg.json": takeout("IMG_0001.jpg", 1562250000, PARIS),
    "takeout/Photos from 2019/IMG_0002.jpg": BARE_JPEG,
    "takeout/Photos from 2019/IMG_0002.jpg.supplemental-metadata.json": takeout(
        "IMG_0002.jpg", 1562260000, NONE, BERLIN),
    "takeout/Photos from 2019/IMG_0003.jpg": BARE_JPEG,
    "takeout/Photos from 2019/IMG_0003.jpg.json": takeout("IMG_0003.jpg", 1562270000, MADRID),
    "takeout/Photos from 2019/IMG_0003(1).jpg": BARE_JPEG,
    "takeout/Photos from 2019/IMG_0003.jpg(1).json": takeout("IMG_0003.jpg", 1562280000, ROME),
    "takeout/Photos from 2019/" + LONG: BARE_JPEG,
    "takeout/Photos from 2019/" + LONG[:46] + ".json": takeout(LONG, 1562290000, BERLIN),
    "takeout/Photos from 2019/" + LONG2: BARE_JPEG,
    "takeout/Photos from 2019/" + (LONG2 + ".supplemental-metadata")[:46] + ".json": takeout(
        LONG2, 1562300000, ROME),
    "takeout/Photos from 2019/IMG_0004.jpg": BARE_JPEG,
    "takeout/Photos from 2019/IMG_0004-edited.jpg": BARE_JPEG,
    "takeout/Photos from 2019/IMG_0004.jpg.json": takeout("IMG_0004.jpg", 1562310000, MADRID),
    "takeout/Photos from 2019/IMG_0005.jpg": BARE_JPEG,
    "takeout/Photos from 2019/IMG_0005.jpg.json": takeout("IMG_0005.jpg", 1562320000, NONE),
    "takeout/Photos from 2019/IMG_0006.jpg.json": takeout("IMG_0006.jpg", 1562330000, PARIS),
    "takeout/Photos from 2019/metadata.json": json.dumps(
        {"title": "Photos from 2019", "description": "", "access": "protected"}, indent=2) + "\n",
    # XMP sidecars: Lightroom's NAME.xmp, darktable's NAME.EXT.xmp, any case, and an orphan.
    "xmp/DSC_0001.jpg": BARE_JPEG,
    "xmp/DSC_0001.xmp": xmp(
        '\n    exif:GPSLatitude="48,51.498N" exif:GPSLongitude="2,17.67E"'
        '\n    exif:DateTimeOriginal="2019-07-04T18:30:15.25+02:00"'),
    "xmp/DSC_0002.jpg": BARE_JPEG,
    "xmp/DSC_0002.jpg.xmp": xmp(
        elements="   <exif:GPSLatitude>40.4169</exif:GPSLatitude>\n"
        "   <exif:GPSLatitudeRef>N</exif:GPSLatitudeRef>\n"
        "   <exif:GPSLongitude>3.7035</exif:GPSLongitude>\n"
        "   <exif:GPSLongitudeRef>W</exif:GPSLongitudeRef>\n"
        "   <exif:GPSAltitude>6500/10</exif:GPSAltitude>\n"
        "   <exif:GPSAltitudeRef>0</exif:GPSAltitudeRef>\n"
        "   <photoshop:DateCreated>2019-07-05T10:10:10-07:00</photoshop:DateCreated>\n"),
    "xmp/DSC_0003.JPG": BARE_JPEG,
    "xmp/dsc_0003.XMP": xmp('\n    exif:GPSLatitude="41,53,24.72N" exif:GPSLongitude="12,29,31.92E"'),
    "xmp/DSC_0004.jpg": BARE_JPEG,
    "xmp/DSC_0004.xmp": xmp('\n    exif:GPSLatitude="52,30.978N" exif:GPSLongitude="13,22.662E"'),
    "xmp/DSC_0004.jpg.json": takeout("DSC_0004.jpg", 1562340000, PARIS),
    "xmp/orphan.xmp": xmp('\n    exif:GPSLatitude="33,51.5S" exif:GPSLongitude="151,12.9E"'
                          '\n    xmp:CreateDate="2019-07-06T09:00:00Z"'),
}


def main():
    for name, content in sorted(FILES.items()):
        path = os.path.join(OUT, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        with open(path, "wb") as f:
            f.write(data)
    print(f"wrote {len(FILES)} files in {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
