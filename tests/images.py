"""Comparing images by what they show, not by their PNG bytes.

The table and the mat deflate their rows with ISA-L (:mod:`renders.layers`), whose output is not
byte-for-byte the same every time: the same rows drawn in another thread or process can come out
as a different (valid) deflate stream. ISA-L does not promise identical output (intel/isa-l#140),
and CI once saw a render worker's table differ from the test process's only in its IDAT bytes. The
pixels and the palette are always the same, so that is what tests compare (``tests/test_renders.py``'s
golden digests too).
"""

from __future__ import annotations

import hashlib
import io

from PIL import Image


def shown(data: bytes) -> tuple[str, tuple[int, int], bytes, bytes]:
    """What a PNG shows: its mode, size, palette and pixels (equal for equal images)."""
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.mode, image.size, bytes(image.getpalette() or ()), image.tobytes()


def pixels_digest(data: bytes) -> str:
    """A short fingerprint of :func:`shown` (the golden images' digests)."""
    mode, (width, height), palette, pixels = shown(data)
    return hashlib.sha256(f"{mode} {width}x{height}".encode() + palette + pixels).hexdigest()
