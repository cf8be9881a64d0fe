// Presses on buttons. A finger on a button acts when it lifts, however long it stayed: a browser
// reads a press held past its long-press delay as no click at all, which on a game board only
// loses the move. The click the browser may still send afterwards is swallowed, so a tap acts
// exactly once. Supply pieces are left to the drag code (a press there may become a drag).

const SLOP = 12;
const SWALLOW_MS = 800;

export function attachTaps() {
  let press = null;
  let acted = null;

  document.addEventListener("pointerdown", (event) => {
    const button = event.pointerType === "touch" && event.target.closest ? event.target.closest("button") : null;
    press = button && !button.matches(".piece") ? { button, x: event.clientX, y: event.clientY, id: event.pointerId } : null;
  }, true);

  document.addEventListener("pointerup", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const { button, x, y } = press;
    press = null;
    const still = Math.hypot(event.clientX - x, event.clientY - y) <= SLOP;
    const under = document.elementFromPoint(event.clientX, event.clientY);
    if (!still || !under || under.closest("button") !== button || button.disabled || !button.isConnected) return;
    acted = { button, at: performance.now() };
    button.click();
  }, true);

  document.addEventListener("click", (event) => {
    if (!acted || !event.isTrusted) return;
    const late = performance.now() - acted.at > SWALLOW_MS;
    const same = event.target.closest && event.target.closest("button") === acted.button;
    if (!late && (same || !acted.button.isConnected)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
    acted = null;
  }, true);

  document.addEventListener("pointercancel", () => { press = null; }, true);
}

// A redraw replaces the board's buttons, and a click is only sent when the press and the release
// land on the same element: a redraw between them (a live update, the plan's answer arriving)
// would lose the click. So while a button is pressed the board holds its redraws, and draws
// what waited once the press has ended and its click has been handled.
export function attachPressHold(board) {
  document.addEventListener("pointerdown", (event) => {
    if (event.target.closest && event.target.closest("button")) board.pressed = true;
  }, true);
  const release = () => {
    if (!board.pressed) return;
    board.pressed = false;
    setTimeout(() => board.releasePress(), 0); // after the click this release sends
  };
  window.addEventListener("pointerup", release, true);
  window.addEventListener("pointercancel", release, true);
  window.addEventListener("blur", release);
}
