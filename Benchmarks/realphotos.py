#!/usr/bin/env python3
"""Real camera photos for `make bench`: folders of hard links and of distinct photo heads, made
from the valid-GPS camera JPEGs of the shared dev corpus (standard library only).

    python3 Benchmarks/realphotos.py links DIR --count 20000     # DIR/photos/, hard links
    python3 Benchmarks/realphotos.py heads DIR --count 8000      # DIR/photos/, distinct files

The corpus is PHOTOTAG_SHARED/corpus/dev (default: `shared` beside the repository), whose
manifest.tsv says what each file holds. The photos used are its `gps` pool JPEGs whose GPS is
`valid` (52 in the dev set): real cameras' and phones' files with maker notes, thumbnails and
EXIF blocks of 2-60 KiB, each with the position ExifTool reads from it.

- **links**: COUNT hard links, in folders of 1,000 (`100REAL/`, `101REAL/`...), to copies of those
  photos kept beside them (`sources/`; hard links cannot cross file systems). Link i points to
  photo i mod 52: the same few inodes, so a warm page cache holds every one of them: the
  warm-cache scan of real photos.
- **heads**: COUNT distinct files of HEAD_BYTES (default 200 KB) each, in folders of 1,000: photo
  i mod 52, cut at HEAD_BYTES or padded with zero bytes after its end, plus the file's number in
  its last 8 bytes (so no two are alike). Every file is its own inode, so after dropping the page
  cache every one is read from the disk: the cold-cache scan. Only the head of a photo matters to
  a scan; the cut never reaches an EXIF block here (the largest APP1 of the set is 60 KiB).

Each folder is made once and cached (keyed by the kind, the count and the list of photos) and
has a manifest.json: the kind, the count and the corpus photos with their positions; file i
stands for photo i mod their number (`entries()` lists them).
"""
import argparse
import hashlib
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PER_FOLDER = 1000
HEAD_BYTES = 200 * 1000


def shared_root():
    return os.environ.get("PHOTOTAG_SHARED") or os.path.join(os.path.dirname(ROOT), "shared")


def corpus_photos():
    """The valid-GPS camera JPEGs of the dev corpus: (folder, [(name, lat, lon)]), or (None,
    reason) when the corpus is not there."""
    folder = os.path.join(shared_root(), "corpus", "dev")
    manifest = os.path.join(folder, "manifest.tsv")
    if not os.path.exists(manifest):
        return None, (f"no real-photo corpus at {folder} (set PHOTOTAG_SHARED to the folder that has "
                      f"corpus/dev/manifest.tsv)")
    photos = []
    with open(manifest, encoding="utf-8") as handle:
        columns = handle.readline().rstrip("\n").split("\t")
        for line in handle:
            row = dict(zip(columns, line.rstrip("\n").split("\t")))
            if row.get("pool") == "gps" and row.get("file_type") == "JPEG" and row.get("gps_status") == "valid":
                if os.path.exists(os.path.join(folder, row["file"])):
                    photos.append((row["file"], float(row["lat"]), float(row["lon"])))
    if not photos:
        return None, f"{manifest} lists no valid-GPS JPEG that is present"
    return folder, sorted(photos)


def key(kind, count, photos, extra=""):
    digest = hashlib.sha256("\n".join(name for name, _, _ in photos).encode() + extra.encode()).hexdigest()[:10]
    return f"real-{kind}-n{count}-{digest}"


def link_name(index, name):
    """The name of file `index` in its folder: a DCIM-like folder and the photo's own extension."""
    extension = os.path.splitext(name)[1].lower() or ".jpg"
    return f"{100 + index // PER_FOLDER}REAL/R{index:07d}{extension}"


def links(cache, count, progress=None):
    """CACHE/real-links-nCOUNT-*/photos: COUNT hard links to the corpus's valid-GPS JPEGs, and the
    manifest; or (None, reason)."""
    folder, photos = corpus_photos()
    if folder is None:
        return None, photos
    root = os.path.join(cache, key("links", count, photos))
    manifest_path = os.path.join(root, "manifest.json")
    if not os.path.exists(manifest_path):
        if os.path.exists(root):
            shutil.rmtree(root)  # an interrupted run
        sources = os.path.join(root, "sources")
        os.makedirs(sources)
        for index, (name, _, _) in enumerate(photos):
            shutil.copyfile(os.path.join(folder, name), os.path.join(sources, f"{index:03d}{os.path.splitext(name)[1]}"))
        for index in range(count):
            which = index % len(photos)
            name = photos[which][0]
            target = os.path.join(root, "photos", link_name(index, name))
            if index % PER_FOLDER == 0:
                os.makedirs(os.path.dirname(target), exist_ok=True)
            os.link(os.path.join(sources, f"{which:03d}{os.path.splitext(name)[1]}"), target)
            if progress and index % 10000 == 9999:
                progress(index + 1, count)
        write_manifest(manifest_path, "links", count, photos)
    return os.path.join(root, "photos"), read_manifest(manifest_path)


def heads(cache, count, size=HEAD_BYTES, progress=None):
    """CACHE/real-heads-nCOUNT-*/photos: COUNT distinct files of `size` bytes made from the corpus's
    valid-GPS JPEGs, and the manifest; or (None, reason)."""
    folder, photos = corpus_photos()
    if folder is None:
        return None, photos
    root = os.path.join(cache, key("heads", count, photos, extra=f"/{size}"))
    manifest_path = os.path.join(root, "manifest.json")
    if not os.path.exists(manifest_path):
        if os.path.exists(root):
            shutil.rmtree(root)
        contents = []
        for name, _, _ in photos:
            with open(os.path.join(folder, name), "rb") as handle:
                data = handle.read(size)
            contents.append(data + bytes(size - len(data)))
        for index in range(count):
            which = index % len(photos)
            target = os.path.join(root, "photos", link_name(index, photos[which][0]))
            if index % PER_FOLDER == 0:
                os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as handle:
                handle.write(contents[which][:-8] + index.to_bytes(8, "little"))
            if progress and index % 1000 == 999:
                progress(index + 1, count)
        write_manifest(manifest_path, "heads", count, photos)
    return os.path.join(root, "photos"), read_manifest(manifest_path)


def write_manifest(path, kind, count, photos):
    with open(path + ".tmp", "w") as handle:
        json.dump({"kind": kind, "count": count, "photos": photos}, handle)
    os.replace(path + ".tmp", path)


def entries(manifest):
    """(path in the folder, corpus photo, latitude, longitude) of every file, in order."""
    photos = manifest["photos"]
    for index in range(manifest["count"]):
        name, lat, lon = photos[index % len(photos)]
        yield link_name(index, name), name, lat, lon


def read_manifest(path):
    with open(path) as handle:
        return json.load(handle)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["links", "heads"])
    parser.add_argument("cache", help="the folder to make it in (a cached subfolder is reused)")
    parser.add_argument("--count", type=int, default=20000)
    args = parser.parse_args()
    made = links(args.cache, args.count) if args.kind == "links" else heads(args.cache, args.count)
    if made[0] is None:
        sys.exit(f"realphotos: {made[1]}")
    print(f"{made[1]['count']} files in {made[0]}")


if __name__ == "__main__":
    main()
