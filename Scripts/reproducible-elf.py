#!/usr/bin/env python3
"""Makes a stripped Swift executable the same bytes wherever it was built (Scripts/make-dist).

    reproducible-elf.py BINARY

The Swift compiler writes into every object a 16-byte hash of its LLVM module, in the section
`.swift_modhash`, for its own incremental builds; the module names its source files by their
absolute paths, so the hashes, and the linker's build ID computed over the whole output, differ
between two folders holding the same commit. Nothing reads the section when the program runs.
This script, editing the file in place without moving anything:

1. fills `.swift_modhash` with zeros;
2. sets the GNU build ID (`.note.gnu.build-id`) to the SHA-1 of the file with the build ID
   itself zeroed, so that it still names the binary's contents, and nothing else.

A 64-bit little-endian ELF file is expected; a section that is missing is left alone.
"""
import hashlib
import struct
import sys


def sections(data):
    """(name, type, offset, size) of every section of a 64-bit little-endian ELF file."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit("reproducible-elf: not a 64-bit little-endian ELF file")
    header_offset, = struct.unpack_from("<Q", data, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, header_offset + index * entry_size) for index in range(count)]
    names_offset = headers[names_index][4]
    result = []
    for name, kind, _flags, _address, offset, size, *_ in headers:
        start = names_offset + name
        result.append((data[start : data.index(b"\0", start)].decode(), kind, offset, size))
    return result


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: reproducible-elf.py BINARY")
    path = sys.argv[1]
    with open(path, "rb") as handle:
        data = bytearray(handle.read())
    build_id = None
    for name, kind, offset, size in sections(data):
        if name == ".swift_modhash" and kind == 1:  # SHT_PROGBITS
            data[offset : offset + size] = bytes(size)
        elif name == ".note.gnu.build-id":
            name_size, description_size, note_type = struct.unpack_from("<III", data, offset)
            if note_type != 3:  # NT_GNU_BUILD_ID
                sys.exit("reproducible-elf: .note.gnu.build-id holds no build ID")
            start = offset + 12 + (name_size + 3) // 4 * 4
            build_id = (start, description_size)
            data[start : start + description_size] = bytes(description_size)
    if build_id:
        start, length = build_id
        digest = hashlib.sha1(data).digest()
        data[start : start + length] = (digest * (length // len(digest) + 1))[:length]
    with open(path, "r+b") as handle:
        handle.write(data)


if __name__ == "__main__":
    main()
