// The keyboard: R turns and F flips the piece in hand, Esc puts it back; arrows move between
// supply pieces and across a puzzle's cells (one Tab stop per puzzle); Enter or Space on a cell
// places the picked piece there. A placement without a pointer: pick, arrow, Enter.

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function typing(target) {
  return target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

export function attachKeys(board) {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target) || !board.view) return;
    if (board.view.me.spectator) return; // no piece to turn, flip or place: the keys stay the browser's
    const target = event.target;
    const key = event.key;
    if (key === "r" || key === "R") {
      event.preventDefault();
      board.turn();
      return;
    }
    if (key === "f" || key === "F") {
      event.preventDefault();
      board.flip();
      return;
    }
    if (key === "Escape") {
      board.cancel();
      return;
    }
    if (target.getAttribute && target.getAttribute("role") === "gridcell") {
      if (ARROWS[key]) {
        event.preventDefault();
        const [dr, dc] = ARROWS[key];
        const r = Math.min(4, Math.max(0, +target.dataset.r + dr));
        const c = Math.min(4, Math.max(0, +target.dataset.c + dc));
        board.focusKey(`cell:${target.dataset.card}:${r}:${c}`);
        return;
      }
      if (key === "Home" || key === "End") {
        event.preventDefault();
        const r = key === "Home" ? 0 : 4;
        board.focusKey(`cell:${target.dataset.card}:${r}:${r}`);
        return;
      }
      if (key === "Enter" || key === " ") {
        event.preventDefault();
        board.placeAt(target.dataset.card, +target.dataset.r, +target.dataset.c);
      }
      return;
    }
    if (target.matches && target.matches("button.piece") && (key === "ArrowLeft" || key === "ArrowRight" || key === "ArrowUp" || key === "ArrowDown")) {
      event.preventDefault();
      const pieces = [...document.querySelectorAll("#supply button.piece:not([disabled])")];
      const at = pieces.indexOf(target);
      const step = key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1;
      const next = pieces[(at + step + pieces.length) % pieces.length];
      if (next) next.focus();
    }
  });

  // the preview follows the focused cell; a click (a tap) on a cell places the picked piece
  // there, or says to pick one first, as Enter does
  document.addEventListener("focusin", (event) => {
    const target = event.target;
    if (target.getAttribute && target.getAttribute("role") === "gridcell") board.rove(target);
    board.updateKeyboardPreview();
  });
  document.addEventListener("click", (event) => {
    const cell = event.target.closest && event.target.closest('[role="gridcell"]');
    if (cell) board.placeAt(cell.dataset.card, +cell.dataset.r, +cell.dataset.c);
  });
}
