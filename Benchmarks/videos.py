"""Phone-like videos for `make bench` (the `videos` section of Benchmarks/bench.py).

Each video is a real QuickTime/MP4 structure with a large sparse `mdat`: `ftyp`, `mdat` (0.1 to
6 GB of holes, a 64-bit size past 4 GiB), then `moov` at the end, as phones write it while
recording. The `moov` holds `mvhd`, two tracks whose sample tables are 8-64 KiB of filler (the
size real ones have for a clip of a few minutes) and the location: every even file is an
iPhone-style `.mov` (QuickTime keys `com.apple.quicktime.location.ISO6709` and `creationdate`),
every odd one an Android-style `.mp4` (`udta/©xyz`). Seeded, so the same arguments give the same
files. The holes take no disk space: 2,000 videos use about 160 MB.
"""
import json
import os
import random
import shutil
import struct

GENERATOR_VERSION = 1


def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def full_box(kind, payload):
    return box(kind, bytes(4) + payload)


def mvhd(created):
    matrix = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
    return full_box(b"mvhd", struct.pack(">IIII", created, created, 600, 600 * 60) + struct.pack(">IH", 0x10000, 0x100)
                    + bytes(10) + matrix + bytes(24) + struct.pack(">I", 3))


def trak(rng):
    """A track stand-in: a sample table of 8-64 KiB (real stsz/stco sizes for a short clip)."""
    return box(b"trak", box(b"mdia", box(b"minf", box(b"stbl", box(b"stsz", rng.randbytes(rng.randrange(8, 64) << 10))))))


def keys_meta(items):
    hdlr = full_box(b"hdlr", bytes(4) + b"mdta" + bytes(12) + b"\0")
    keys = full_box(b"keys", struct.pack(">I", len(items)) + b"".join(
        struct.pack(">I", 8 + len(key)) + b"mdta" + key for key, _ in items))
    ilst = box(b"ilst", b"".join(struct.pack(">II", 24 + len(value), index) + box(b"data", struct.pack(">II", 1, 0) + value)
                                 for index, (_, value) in enumerate(items, start=1)))
    return box(b"meta", hdlr + keys + ilst)


def make_videos(folder, count, seed, progress=None):
    rng = random.Random(seed)
    os.makedirs(folder)
    manifest = []
    for index in range(count):
        latitude, longitude = round(rng.uniform(-55, 70), 4), round(rng.uniform(-180, 180), 4)
        iso6709 = f"{latitude:+08.4f}{longitude:+09.4f}/".encode()
        created = 3_600_000_000 + rng.randrange(100_000_000)  # 2018-2021, seconds since 1904
        mdat_size = rng.randrange(100_000_000, 6_000_000_000)
        if index % 2 == 0:
            name = f"IMG_{index:04d}.MOV"
            head = box(b"ftyp", b"qt  " + bytes(4) + b"qt  ") + box(b"wide", b"")
            location = keys_meta([(b"com.apple.quicktime.location.ISO6709", iso6709),
                                  (b"com.apple.quicktime.make", b"Apple"),
                                  (b"com.apple.quicktime.creationdate", b"2020-07-01T14:34:56+0200")])
        else:
            name = f"VID_{index:04d}.mp4"
            head = box(b"ftyp", b"mp42" + bytes(4) + b"isommp42")
            location = box(b"udta", box(b"\xa9xyz", struct.pack(">HH", len(iso6709), 0x15C7) + iso6709))
        moov = box(b"moov", mvhd(created) + trak(rng) + trak(rng) + location)
        if mdat_size < 1 << 32:
            mdat_header = struct.pack(">I4s", mdat_size, b"mdat")
        else:
            mdat_header = struct.pack(">I4sQ", 1, b"mdat", mdat_size)
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(head + mdat_header)
            handle.truncate(len(head) + mdat_size)  # the media data: a hole
            handle.seek(len(head) + mdat_size)
            handle.write(moov)
        manifest.append({"file": name, "position": [latitude, longitude], "moov": len(moov),
                         "size": len(head) + mdat_size + len(moov)})
        if progress and (index + 1) % 100 == 0:
            progress(index + 1, count)
    return manifest


def cached_videos(cache, count, seed, progress=None):
    """The video folder for (version, count, seed) under `cache`, generated once; and its manifest."""
    root = os.path.join(cache, f"videos-v{GENERATOR_VERSION}-n{count}-s{seed}")
    manifest_path = os.path.join(root, "manifest.json")
    if not os.path.exists(manifest_path):
        if os.path.exists(root):
            shutil.rmtree(root)  # an interrupted generation
        videos = make_videos(os.path.join(root, "videos"), count, seed, progress)
        with open(manifest_path + ".tmp", "w") as handle:
            json.dump({"version": GENERATOR_VERSION, "count": count, "seed": seed, "videos": videos}, handle)
        os.replace(manifest_path + ".tmp", manifest_path)
    with open(manifest_path) as handle:
        return os.path.join(root, "videos"), json.load(handle)
