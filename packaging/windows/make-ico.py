#!/usr/bin/env python3
"""Writes sandbar.ico from the PNGs the build renders (build/resources/icons/N.png).

An .ico is a directory of images; Windows Vista and later read PNG-compressed entries, so
the PNGs go in as they are. The .rc needs the file at configure time on Windows, where the
build has not rendered anything yet, hence a committed file made with this script:
    packaging/windows/make-ico.py build/resources/icons packaging/windows/sandbar.ico
"""
import struct
import sys
from pathlib import Path

SIZES = (16, 24, 32, 48, 64, 128, 256)


def main(src: str, out: str) -> None:
    images = [(size, Path(src, f"{size}.png").read_bytes()) for size in SIZES]
    header = struct.pack("<HHH", 0, 1, len(images))  # reserved, type 1 = icon, count
    offset = len(header) + 16 * len(images)
    entries, data = b"", b""
    for size, png in images:
        dim = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(png), offset + len(data))
        data += png
    Path(out).write_bytes(header + entries + data)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: make-ico.py PNG_DIR OUT.ico")
    main(sys.argv[1], sys.argv[2])
