// Dragging a piece from the supply with a mouse, a pen or a finger (Pointer Events). The piece
// follows the pointer at the puzzles' cell size; the cells where it fits in its current
// orientation are lit; R, F, the wheel and a right click turn and flip it on the way; a drop
// where it cannot go springs back and the engine's reason is shown; a drop on the reserve offers
// an upgrade; Esc springs the piece back (the returned function, called by the board's Esc).

import { h } from "./dom.js";
import { anchored, extent } from "./shapes.js";
import { pieceSvg } from "./view.js";

const THRESHOLD = 5;
const FINGERTIP = 44; // CSS px a fingertip covers, about

/** How far above a finger the held cell of a piece it drags rides, in CSS px: a fingertip hides
 * what is under it, the piece and the puzzle cells lit where it would land alike, so the whole
 * piece (`cells` in its orientation, held by cell `held`) is drawn with its lowest row just
 * clear of the fingertip, the held cell's column over the finger. A mouse or pen holds its piece
 * under the pointer. */
function touchLift(cells, held) {
  const lowest = Math.max(...cells.map(([r]) => r));
  return Math.round(FINGERTIP / 2 + (lowest - cells[held][0] + 0.5) * cellSize());
}

function cellSize() {
  const cell = document.querySelector("#puzzles rect.cell");
  return cell ? cell.getBoundingClientRect().width / 0.9 : 40;
}

function over(element, x, y) {
  if (!element) return false;
  const box = element.getBoundingClientRect();
  return x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
}

/** The puzzle cell under a point: {card, r, c}, or null. */
function cellAt(x, y) {
  for (const grid of document.querySelectorAll("#puzzles svg.grid")) {
    const box = grid.getBoundingClientRect();
    if (x < box.left || x >= box.right || y < box.top || y >= box.bottom) continue;
    const r = Math.floor(((y - box.top) / box.height) * 5);
    const c = Math.floor(((x - box.left) / box.width) * 5);
    return { card: grid.dataset.card, r, c };
  }
  return null;
}

export function attachDrag(board) {
  let press = null;
  board.touchLift = touchLift;
  let suppressClick = false;

  document.addEventListener("pointerdown", (event) => {
    const button = event.target.closest && event.target.closest("button.piece");
    if (!button || button.disabled || event.button > 0 || board.dragging || !board.view || board.view.me.spectator) return;
    press = { button, shape: button.dataset.shape, x: event.clientX, y: event.clientY, id: event.pointerId,
      touch: event.pointerType === "touch" };
    try {
      button.setPointerCapture(event.pointerId);
    } catch {
      // a synthetic pointer cannot be captured; window listeners still follow it
    }
  });

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button.piece");
    if (!button) return;
    if (suppressClick) {
      suppressClick = false;
      event.preventDefault();
      return;
    }
    board.pick(button.dataset.shape, event.detail === 0);
  });

  window.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id || press.cancelled) return;
    if (!board.dragging) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < THRESHOLD) return;
      begin(event);
    }
    event.preventDefault();
    move(event.clientX, event.clientY);
  }, { passive: false });

  window.addEventListener("pointerup", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const wasDragging = !!board.dragging;
    if (wasDragging || press.cancelled) { // the release of a drag is no click on the piece
      suppressClick = true;
      setTimeout(() => { suppressClick = false; }, 0);
    }
    if (wasDragging) finish(event.clientX, event.clientY);
    press = null;
  });

  window.addEventListener("pointercancel", (event) => {
    if (!press || event.pointerId !== press.id) return;
    if (board.dragging) springBack();
    press = null;
  });

  window.addEventListener("wheel", (event) => {
    if (!board.dragging) return;
    event.preventDefault();
    if (event.deltaY < 0) board.turn();
    else board.turn(), board.turn(), board.turn();
  }, { passive: false });

  // a right click while dragging flips the piece in hand (the other Project L game's gesture),
  // instead of opening the browser's menu
  window.addEventListener("contextmenu", (event) => {
    if (!board.dragging) return;
    event.preventDefault();
    board.flip();
  });

  function begin(event) {
    const { button, shape } = press;
    const cells = board.orientation(shape);
    const art = button.querySelector("svg");
    const box = art.getBoundingClientRect();
    const [rows, cols] = extent(cells);
    // the cell of the piece nearest to where it was grabbed is the one that stays under the pointer
    const gr = ((press.y - box.top) / box.height) * rows - 0.5;
    const gc = ((press.x - box.left) / box.width) * cols - 0.5;
    let held = 0;
    let best = Infinity;
    cells.forEach(([r, c], i) => {
      const d = (r - gr) ** 2 + (c - gc) ** 2;
      if (d < best) { best = d; held = i; }
    });
    const ghost = h("div", { class: "ghost", "aria-hidden": "true" });
    document.getElementById("drag-layer").append(ghost);
    board.dragging = {
      shape, cells, held, ghost, button, origin: button.getBoundingClientRect(), x: event.clientX, y: event.clientY,
      touch: press.touch,
      onTurn: () => { draw(); move(board.dragging.x, board.dragging.y); },
    };
    board.picked = null;
    button.classList.add("lifted");
    draw();
  }

  function draw() {
    const drag = board.dragging;
    const size = cellSize();
    const [rows, cols] = extent(drag.cells);
    const art = pieceSvg(drag.shape, drag.cells, { width: cols * size, height: rows * size });
    drag.ghost.replaceChildren(art);
    drag.size = size;
  }

  // x, pointerY: where the pointer is; under a finger the piece, and the cell it aims at, are above it (touchLift)
  function move(x, pointerY) {
    const drag = board.dragging;
    drag.x = x;
    drag.y = pointerY;
    const y = pointerY - (drag.touch ? touchLift(drag.cells, drag.held) : 0);
    const [hr, hc] = drag.cells[drag.held];
    drag.ghost.style.transform = `translate(${x - (hc + 0.5) * drag.size}px, ${y - (hr + 0.5) * drag.size}px)`;
    const target = cellAt(x, y);
    if (target) {
      const cells = anchored(drag.cells, drag.held, target.r, target.c);
      board.preview = { card: target.card, cells: cells.filter(([r, c]) => r >= 0 && r < 5 && c >= 0 && c < 5),
        ok: !!board.legal(drag.shape, target.card, cells) };
    } else {
      board.preview = null;
    }
    const reserve = document.getElementById("reserve");
    if (reserve) reserve.classList.toggle("drop-target", over(reserve, x, y));
    board.repaint();
  }

  async function finish(x, pointerY) {
    const drag = board.dragging;
    const y = pointerY - (drag.touch ? touchLift(drag.cells, drag.held) : 0);
    const target = cellAt(x, y);
    const reserve = document.getElementById("reserve");
    if (target) {
      const cells = anchored(drag.cells, drag.held, target.r, target.c);
      const legal = board.legal(drag.shape, target.card, cells);
      if (legal) {
        drag.ghost.remove();
        board.endDrag();
        await board.drop(drag.shape, target.card, cells);
        return;
      }
      springBack();
      await board.explain(drag.shape, target.card, cells);
      return;
    }
    if (over(reserve, x, y)) {
      drag.ghost.remove();
      board.endDrag();
      board.startUpgrade(drag.shape);
      return;
    }
    springBack();
    board.say(board.t("noPuzzle"));
  }

  function springBack() {
    const drag = board.dragging;
    const ghost = drag.ghost;
    const from = ghost.getBoundingClientRect();
    const to = drag.origin;
    ghost.classList.add("springing");
    const animation = ghost.animate([
      { transform: ghost.style.transform },
      { transform: `translate(${to.left}px, ${to.top}px)`, opacity: 0.2 },
    ], { duration: Math.min(320, 120 + Math.hypot(to.left - from.left, to.top - from.top) / 4), easing: "ease-out" });
    animation.onfinish = () => ghost.remove();
    drag.button.classList.remove("lifted"); // no redraw follows a spring back: the piece is back
    board.endDrag();
  }

  // Esc while dragging: the piece goes back, the rest of this press moves nothing
  return () => {
    if (!board.dragging) return false;
    springBack();
    if (press) press.cancelled = true;
    return true;
  };
}
