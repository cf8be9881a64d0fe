// Piece geometry on the page: cells are [row, col]; a piece's orientation keeps its cells in a
// fixed order, so the cell the player holds stays the same cell when the piece turns or flips.

export const GRID = 5;
export const COLUMNS = "ABCDE";

/** Shift cells so the smallest row and column are 0 (the order of the cells is kept). */
export function normalise(cells) {
  const top = Math.min(...cells.map(([r]) => r));
  const left = Math.min(...cells.map(([, c]) => c));
  return cells.map(([r, c]) => [r - top, c - left]);
}

/** A quarter turn clockwise. */
export function turned(cells) {
  return normalise(cells.map(([r, c]) => [c, -r]));
}

/** A mirror image (left and right swapped). */
export function flipped(cells) {
  return normalise(cells.map(([r, c]) => [r, -c]));
}

/** A text key for a set of cells, whatever their order. */
export function cellsKey(cells) {
  return cells.map(([r, c]) => r * GRID + c).sort((a, b) => a - b).join(",");
}

/** The cells the piece covers when its cell `held` lies on the puzzle cell [row, col]. */
export function anchored(cells, held, row, col) {
  const [hr, hc] = cells[held];
  return cells.map(([r, c]) => [row + r - hr, col + c - hc]);
}

export function inside(cells) {
  return cells.every(([r, c]) => r >= 0 && r < GRID && c >= 0 && c < GRID);
}

/** "C3" for [2, 2]: the column letter and the row number, as the engine writes cells. */
export function cellName(r, c) {
  return `${COLUMNS[c]}${r + 1}`;
}

/** Rows and columns a set of cells spans. */
export function extent(cells) {
  return [Math.max(...cells.map(([r]) => r)) + 1, Math.max(...cells.map(([, c]) => c)) + 1];
}

/** The legal placements (from the view) of `shape` whose cells have the orientation `cells`. */
export function fittingPlacements(placements, cells) {
  const wanted = cellsKey(normalise(cells));
  return placements.filter((p) => cellsKey(normalise(p.cells)) === wanted);
}
