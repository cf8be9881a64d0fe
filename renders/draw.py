"""Low-level drawing shared by every image: cells, pieces, piece sprites, badges, frames.

Pieces are drawn the same way everywhere — cells filled in the piece colour, thin darker lines
between a piece's own cells (so its size can be counted), and a thick dark outline around the
whole piece — so a shape reads by outline and colour at once, and the outline still separates
two touching pieces of the same colour.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.cards import Ambassador, LevelUp
from engine.pieces import GRID, ORIENTATIONS, Shape

from . import fonts, indexed
from .cache import MB, byte_lru, image_bytes
from .indexed import blank, ink
from .palette import ARROW, FADED, FADED_EDGE, PIECE, PIECE_EDGE, RGB, mix, text_on

Cells = tuple[tuple[int, int], ...]


def cells_of(mask: int) -> Cells:
    return tuple((i % GRID, i // GRID) for i in range(GRID * GRID) if mask >> i & 1)


def edge_width(cell: int) -> int:
    """Outline thickness for a cell size: visible when small, not heavy when large."""
    return max(1, round(cell / 11))


def paint_piece(
    draw: ImageDraw.ImageDraw,
    x0: int,
    y0: int,
    cell: int,
    cells: Cells,
    colour: RGB,
    *,
    edge: RGB = PIECE_EDGE,
    edge_w: int | None = None,
) -> None:
    """Fill ``cells`` (column, row) of a grid whose top-left is (x0, y0), and outline them."""
    w = edge_width(cell) if edge_w is None else edge_w
    shade = mix(colour, PIECE_EDGE, 0.5)
    present = set(cells)
    colour, edge, shade = ink(draw, colour), ink(draw, edge), ink(draw, shade)  # type: ignore[assignment]
    for c, r in cells:
        x, y = x0 + c * cell, y0 + r * cell
        draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=colour)
    for c, r in cells:  # seams between a piece's own cells
        x, y = x0 + c * cell, y0 + r * cell
        if (c + 1, r) in present:
            draw.line((x + cell - 1, y, x + cell - 1, y + cell - 1), fill=shade)
        if (c, r + 1) in present:
            draw.line((x, y + cell - 1, x + cell - 1, y + cell - 1), fill=shade)
    for c, r in cells:  # outline: every cell side that has no neighbour in the piece
        x, y = x0 + c * cell, y0 + r * cell
        if (c, r - 1) not in present:
            draw.rectangle((x, y, x + cell - 1, y + w - 1), fill=edge)
        if (c, r + 1) not in present:
            draw.rectangle((x, y + cell - w, x + cell - 1, y + cell - 1), fill=edge)
        if (c - 1, r) not in present:
            draw.rectangle((x, y, x + w - 1, y + cell - 1), fill=edge)
        if (c + 1, r) not in present:
            draw.rectangle((x + cell - w, y, x + cell - 1, y + cell - 1), fill=edge)


def label_cell(cells: Cells) -> tuple[float, float]:
    """Where a piece's letters go: the cell nearest the piece's centre (always inside it)."""
    cx = sum(c for c, _ in cells) / len(cells)
    cy = sum(r for _, r in cells) / len(cells)
    c, r = min(cells, key=lambda p: ((p[0] - cx) ** 2 + (p[1] - cy) ** 2, p[1], p[0]))
    return c + 0.5, r + 0.5


def label_piece(
    image: Image.Image,
    x0: int,
    y0: int,
    cell: int,
    cells: Cells,
    shape: Shape,
    size: int,
) -> None:
    """Write the piece code on the piece (for readers who cannot tell the colours apart)."""
    c, r = label_cell(cells)
    text = shape.value
    colour = text_on(PIECE[shape])
    fonts.draw(image, x0 + c * cell, y0 + r * cell, text, size, colour, bold=True, anchor="mm")


def sprite_cells(shape: Shape) -> Cells:
    """A compact orientation for icons: as flat as possible (at most 2 cells tall)."""
    best = min(
        ORIENTATIONS[shape],
        key=lambda cells: (max(r for _, r in cells), -max(c for c, _ in cells)),
    )
    return tuple(best)


@byte_lru(1 * MB, image_bytes)
def piece_sprite(shape: Shape, cell: int, faded: bool = False, mode: str = "RGBA") -> Image.Image:
    """The piece on a transparent background, for reserve, supply and reward icons: RGBA, or
    ``mode`` "P" for a palette image (transparent where :data:`indexed.CLEAR`).

    ``faded``: washed-out grey, for a shape the reserve has run out of.
    """
    cells = sprite_cells(shape)
    cols = max(c for c, _ in cells) + 1
    rows = max(r for _, r in cells) + 1
    sprite = blank(mode, (cols * cell, rows * cell), None)
    colour, edge = (FADED, FADED_EDGE) if faded else (PIECE[shape], PIECE_EDGE)
    paint_piece(ImageDraw.Draw(sprite), 0, 0, cell, cells, colour, edge=edge)
    return sprite


def sprite_size(shape: Shape, cell: int) -> tuple[int, int]:
    return piece_sprite(shape, cell).size


def paste_sprite(
    image: Image.Image,
    shape: Shape,
    cell: int,
    x: int,
    y: int,
    *,
    anchor: str = "lm",
    faded: bool = False,
) -> int:
    """Paste a piece icon; ``anchor`` as in :func:`fonts.draw` (l/m/r, t/m). Returns its width."""
    sprite = piece_sprite(shape, cell, faded, indexed.sprite_mode(image))
    w, h = sprite.size
    left = x - (w // 2 if anchor[0] == "m" else w if anchor[0] == "r" else 0)
    top = y - (h // 2 if anchor[1] == "m" else 0)
    indexed.paste_sprite(image, sprite, (left, top))
    return w


@byte_lru(MB // 2, image_bytes)
def disc_image(diameter: int, fill: RGB, outline: RGB | None) -> Image.Image:
    """A smooth filled circle (drawn 4x larger and reduced, since Pillow's are not antialiased)."""
    big = Image.new("L", (diameter * 4, diameter * 4), 0)
    ImageDraw.Draw(big).ellipse((0, 0, diameter * 4 - 1, diameter * 4 - 1), fill=255)
    mask = big.resize((diameter, diameter), Image.Resampling.LANCZOS)
    disc = Image.new("RGBA", (diameter, diameter), fill + (0,))
    disc.putalpha(mask)
    if outline is not None:
        ring = Image.new("L", (diameter * 4, diameter * 4), 0)
        ImageDraw.Draw(ring).ellipse((0, 0, diameter * 4 - 1, diameter * 4 - 1), outline=255, width=6)
        ring_mask = ring.resize((diameter, diameter), Image.Resampling.LANCZOS)
        disc.paste(outline + (255,), (0, 0), ring_mask)
    return disc


def badge(
    image: Image.Image,
    cx: int,
    cy: int,
    diameter: int,
    text: str,
    size: int,
    fill: RGB,
    ink: RGB,
    *,
    outline: RGB | None = None,
) -> None:
    """A round badge with a centred number: card points, action counts."""
    disc = disc_image(diameter, fill, outline)  # antialiased: RGB images only
    indexed.paste_sprite(image, disc, (cx - diameter // 2, cy - diameter // 2))
    fonts.draw(image, cx, cy, text, size, ink, bold=True, anchor="mm")


def pill(
    image: Image.Image,
    x: int,
    y: int,
    text: str,
    size: int,
    fill: RGB,
    ink: RGB,
    *,
    anchor: str = "lm",
    pad: int | None = None,
    bold: bool = True,
) -> tuple[int, int, int, int]:
    """A rounded tag holding text; returns its box."""
    pad = size // 2 if pad is None else pad
    w = fonts.width(text, size, bold) + 2 * pad
    h = int(size * 1.25)
    left = x - (w // 2 if anchor[0] == "m" else w if anchor[0] == "r" else 0)
    top = y - h // 2 if anchor[1] == "m" else y
    box = (left, top, left + w, top + h)
    rounded_box(image, box, h // 2, fill=fill)
    fonts.draw(image, left + w / 2, top + h / 2, text, size, ink, bold=bold, anchor="mm")
    return box


@byte_lru(MB, image_bytes)  # frames, tags and pills of a few sizes each
def _rounded_sprite(
    width: int, height: int, radius: int, fill: RGB | None, outline: RGB | None, line: int, mode: str,
) -> Image.Image:
    sprite = blank(mode, (width, height), None)
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle(
        (0, 0, width - 1, height - 1), radius=radius, fill=None if fill is None else ink(sprite, fill),
        outline=None if outline is None else ink(sprite, outline), width=line,
    )
    return sprite


def rounded_box(
    image: Image.Image, box: tuple[int, int, int, int], radius: int, *, fill: RGB | None = None,
    outline: RGB | None = None, width: int = 1,
) -> None:
    """``ImageDraw.rounded_rectangle(box, ...)``, its corners drawn once per size: Pillow draws
    each corner as an ellipse's clipped slices, ~0.4 M instructions a box, and a table image
    drew some twenty (frames, points tags, pills) at every turn end. The shape does not depend on
    where it stands (integer corners), and it is solid (never antialiased), so pasting it through
    its shape gives the pixels drawing it there gives."""
    x0, y0, x1, y1 = box
    mode = indexed.sprite_mode(image)
    sprite = _rounded_sprite(x1 - x0 + 1, y1 - y0 + 1, radius, fill, outline, width, mode)
    if fill is None and image.mode == "P":
        indexed.paste_outline(image, sprite, (x0, y0), max(radius, width) + 1)
    else:
        indexed.paste_sprite(image, sprite, (x0, y0))


def rounded_rect(
    image: Image.Image, box: tuple[int, int, int, int], radius: int, *, fill: RGB, outline: RGB, width: int,
) -> None:
    """``ImageDraw.rounded_rectangle(box, radius, fill, outline, width)`` for a large box (a
    player's panel, the reserve): Pillow draws each corner as an ellipse's clipped slices, some
    0.5 M instructions a panel. Its corners are drawn in squares of ``2 * radius + 1`` pixels
    that nothing else reaches but the straight edges and the fill, the same in every box at
    least twice as big, so they are cut from one box of that size drawn once
    (:func:`_rounded_sprite`) and the rest is rectangles: the same pixels."""
    x0, y0, x1, y1 = box
    d = 2 * radius
    c = d + 1  # a corner square's side
    if x1 - x0 < 2 * c or y1 - y0 < 2 * c or not 0 < width <= radius:
        ImageDraw.Draw(image).rounded_rectangle(
            box, radius=radius, fill=ink(image, fill), outline=ink(image, outline), width=width)
        return
    draw = ImageDraw.Draw(image)
    inside, edge = ink(image, fill), ink(image, outline)
    draw.rectangle((x0 + c, y0, x1 - c, y1), fill=inside)
    draw.rectangle((x0, y0 + c, x1, y1 - c), fill=inside)
    draw.rectangle((x0 + c, y0, x1 - c, y0 + width - 1), fill=edge)
    draw.rectangle((x0 + c, y1 - width + 1, x1 - c, y1), fill=edge)
    draw.rectangle((x0, y0 + c, x0 + width - 1, y1 - c), fill=edge)
    draw.rectangle((x1 - width + 1, y0 + c, x1, y1 - c), fill=edge)
    corners = _rounded_corners(radius, fill, outline, width, indexed.sprite_mode(image))
    for corner, (x, y) in zip(corners, ((x0, y0), (x1 - d, y0), (x1 - d, y1 - d), (x0, y1 - d)), strict=True):
        indexed.paste_sprite(image, corner, (x, y))


def _corners_bytes(corners: tuple[Image.Image, ...]) -> int:
    return sum(image_bytes(corner) for corner in corners)


@byte_lru(MB // 4, _corners_bytes)
def _rounded_corners(
    radius: int, fill: RGB, outline: RGB, line: int, mode: str,
) -> tuple[Image.Image, Image.Image, Image.Image, Image.Image]:
    """The four corner squares (top left, top right, bottom right, bottom left) of the smallest
    box whose corners :func:`rounded_rect` may cut."""
    c = 2 * radius + 1
    size = 2 * c + 1
    box = _rounded_sprite(size, size, radius, fill, outline, line, mode)
    far = size - c
    return (box.crop((0, 0, c, c)), box.crop((far, 0, size, c)), box.crop((far, far, size, size)),
            box.crop((0, far, c, size)))


def dashed_rect(
    image: Image.Image,
    box: tuple[int, int, int, int],
    colour: RGB,
    *,
    width: int = 2,
    dash: int = 10,
) -> None:
    """A dashed outline, for empty slots: drawn once per size and pasted, as :func:`rounded_box`
    (some forty rectangles each, a table image drew a few of them at every turn end)."""
    x0, y0, x1, y1 = box
    sprite = _dashed_sprite(x1 - x0 + 1, y1 - y0 + 1, colour, width, dash, indexed.sprite_mode(image))
    indexed.paste_sprite(image, sprite, (x0, y0))


@byte_lru(MB // 4, image_bytes)  # free puzzle slots, empty market slots and decks: a few sizes
def _dashed_sprite(width: int, height: int, colour: RGB, line: int, dash: int, mode: str) -> Image.Image:
    sprite = blank(mode, (width, height), None)
    draw = ImageDraw.Draw(sprite)
    fill = ink(sprite, colour)
    x0, y0, x1, y1 = 0, 0, width - 1, height - 1
    for x in range(x0, x1, dash * 2):
        draw.rectangle((x, y0, min(x + dash, x1), y0 + line - 1), fill=fill)
        draw.rectangle((x, y1 - line + 1, min(x + dash, x1), y1), fill=fill)
    for y in range(y0, y1, dash * 2):
        draw.rectangle((x0, y, x0 + line - 1, min(y + dash, y1)), fill=fill)
        draw.rectangle((x1 - line + 1, y, x1, min(y + dash, y1)), fill=fill)
    return sprite


@byte_lru(MB // 4, image_bytes)  # one or two arrows at a few cell sizes (the Ambassador sprite has the rest)
def arrow_sprite(arrows: int, cell: int, mode: str = "RGBA") -> Image.Image:
    """A level-up reward (Ghost Piece expansion): one or two upward arrows, each as tall as a
    three-cell piece, outlined like a piece so it reads on white and black cards alike. ``mode``
    as in :func:`piece_sprite`."""
    width, height = int(cell * 1.5), cell * 3
    sprite = blank(mode, (arrows * width + (arrows - 1) * (cell // 3), height), None)
    draw = ImageDraw.Draw(sprite)
    edge = edge_width(cell) + 1
    for i in range(arrows):
        left = i * (width + cell // 3)
        mid = left + width / 2
        head = height * 0.45
        shaft = width * 0.2
        points = [
            (mid, 0), (left + width - 1, head), (mid + shaft, head), (mid + shaft, height - 1),
            (mid - shaft, height - 1), (mid - shaft, head), (left, head),
        ]
        draw.polygon(points, fill=ink(draw, ARROW), outline=ink(draw, PIECE_EDGE), width=edge)
    return sprite


@byte_lru(MB // 4, image_bytes)
def ambassador_sprite(cell: int, mode: str = "RGBA") -> Image.Image:
    """An Ambassador card's "reward" (Ambassador Pack): no piece but an Ambassador action, drawn
    as a diamond as tall as a three-cell piece, outlined like the level-up arrows."""
    size = cell * 3
    sprite = blank(mode, (size, size), None)
    draw = ImageDraw.Draw(sprite)
    mid = (size - 1) / 2
    points = [(mid, 0), (size - 1, mid), (mid, size - 1), (0, mid)]
    draw.polygon(points, fill=ink(draw, ARROW), outline=ink(draw, PIECE_EDGE), width=edge_width(cell) + 1)
    return sprite


def reward_sprite(reward: Shape | LevelUp | Ambassador, cell: int, mode: str = "RGBA") -> Image.Image:
    """A card's reward as a sprite: a piece icon of ``cell`` px squares, the ↑/⇈ arrows of a
    level-up or an Ambassador card's diamond (each ``3 * cell`` tall)."""
    if isinstance(reward, Shape):
        return piece_sprite(reward, cell, False, mode)
    if isinstance(reward, Ambassador):
        return ambassador_sprite(cell, mode)
    return arrow_sprite(reward.arrows, cell, mode)


def reward_size(reward: Shape | LevelUp | Ambassador, cell: int) -> tuple[int, int]:
    """The width and height :func:`paste_reward` draws ``reward`` at with ``cell``."""
    return reward_sprite(reward, cell).size


def paste_reward(
    image: Image.Image, reward: Shape | LevelUp | Ambassador, cell: int, x: int, y: int, *,
    anchor: str = "lm",
) -> int:
    """Paste a card's reward (:func:`reward_sprite`), anchored as :func:`paste_sprite`. Returns
    its width."""
    sprite = reward_sprite(reward, cell, indexed.sprite_mode(image))
    w, h = sprite.size
    left = x - (w // 2 if anchor[0] == "m" else w if anchor[0] == "r" else 0)
    top = y - (h // 2 if anchor[1] == "m" else 0)
    indexed.paste_sprite(image, sprite, (left, top))
    return w
