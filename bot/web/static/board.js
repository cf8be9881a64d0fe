// The board's controller: it holds the seat's view and what the player is doing with it (the
// piece picked, its orientation, a Master draft), talks to the API, and redraws. Everything
// shown comes from the view JSON; names reach the DOM only as text.

import { ApiError, createApi, NetworkError } from "./api.js";
import { attachDrag } from "./drag.js";
import { h, put } from "./dom.js";
import { browserLocale, spoken, texts } from "./i18n.js";
import { attachKeys } from "./keys.js";
import { attachPressHold, attachTaps } from "./taps.js";
import { anchored, cellName, cellsKey, fittingPlacements, flipped, inside, turned } from "./shapes.js";
import { cardOf, paint, render } from "./view.js";

const QUIET_MS = 4000; // how long a confirmation stays in sight

/** Index of a piece's first cell in reading order: the cell the keyboard cursor carries. */
export function leadCell(cells) {
  let best = 0;
  cells.forEach(([r, c], i) => {
    const [br, bc] = cells[best];
    if (r < br || (r === br && c < bc)) best = i;
  });
  return best;
}

/** A refusal with no words of the board's: the page of a proxy in between (a gateway that gave
 * up waiting, a 4xx of its own: too many requests…) or of a fault of the server's own. It tells
 * nothing of what became of the request, and its status code is nothing to show a player. */
function unexplained(error) {
  return error instanceof ApiError && !error.body.error;
}

/** Whether `a` and `b` share a horizontal band of the screen. */
function covers(a, b) {
  const one = a.getBoundingClientRect();
  const other = b.getBoundingClientRect();
  return one.top < other.bottom && other.top < one.bottom;
}

export class Board {
  constructor(token, options = {}) {
    this.api = createApi(token, options.base || "");
    this.speak(browserLocale());
    this.view = null;
    this.orientations = {};
    this.picked = null;
    this.cursor = null;
    this.draft = null;
    this.upgradeFrom = null;
    this.recycling = null; // a row being recycled: { colour, picked: [slot, …] } (the order chosen so far)
    this.preview = null;
    this.dragging = null;
    this.deferredView = null; // a view that came during a drag or a press, drawn once it ends
    this.pressed = false; // a button is pressed: redraws wait (taps.js, attachPressHold)
    this.heldRedraw = false;
    this.idleWaiters = []; // presses waiting for the request in flight (settled)
    this.busy = false;
    this.forbidden = false;
    this.draftOutOfDate = false; // a live update came while a draft was in flight
    this.planning = null; // Plan mode: { bodies, side, steps, open }, with the real view kept in realView
    this.realView = null;
    this.kept = null; // the seat's plan and the last planned turn's outcome (GET /api/plan)
    this.planNews = false; // the plan changed elsewhere while this page was in Plan mode
    this.heardAt = null; // the revision up to which the others' moves have been announced
    this.lostMove = null; // a move whose answer was lost: { revision it was sent from, card } (lostAnswer)
  }

  async start() {
    this.say(this.t("loading"));
    this.cancelDrag = attachDrag(this);
    attachKeys(this);
    attachTaps();
    attachPressHold(this);
    try {
      const view = await this.firstView();
      if (!view) return;
      this.setView(view);
      this.say("");
    } catch (error) {
      this.fail(error);
      return;
    }
    this.refreshPlan();
    // a plan saved or dropped in another tab or on Discord comes as the stream's `plan` news (no new
    // revision says so); asked again too when the player comes back to this tab (a stream just lost)
    const comeBack = () => {
      if (document.visibilityState === "visible" && !this.forbidden && !this.planning) this.refreshPlan();
    };
    document.addEventListener("visibilitychange", comeBack);
    window.addEventListener("focus", comeBack);
    document.addEventListener("focusin", (event) => this.uncover(event.target));
    this.stopFollowing = this.api.follow((view) => this.liveView(view), (state, reason) => {
      if (state === "forbidden") this.showForbidden(reason);
      else if (state === "lost") this.say(this.t("offline"), "error");
      else if (state === "open" && this.offline) {
        this.say("");
        this.refreshPlan();
      }
      this.offline = state === "lost";
    }, () => this.planChanged());
  }

  /** The seat's plan was kept or dropped (in this tab, another, or on Discord): ask for it now, or,
   * in Plan mode, once it is left (the draft is this tab's own). */
  planChanged() {
    if (this.forbidden) return;
    if (this.planning) this.planNews = true;
    else this.refreshPlan(0);
  }

  /** The board's first view, asked again after a pause growing to 8 s while the server cannot be
   * reached or answers 5xx (saying so); null after any other refusal, which is said. */
  async firstView() {
    for (let delay = 1000; ; delay = Math.min(delay * 2, 8000)) {
      try {
        return await this.api.view();
      } catch (error) {
        // lost, a fault of the server's, or a proxy's page in its place (a 429…): asked again; a
        // refusal in the board's words (a bad link) is final
        if (!(error instanceof NetworkError || unexplained(error) || (error instanceof ApiError && error.status >= 500))) {
          this.fail(error);
          return null;
        }
        this.say(this.t("retrying", { n: delay / 1000 }), "error");
        await new Promise((resume) => setTimeout(resume, delay));
      }
    }
  }

  // --- what the view says -------------------------------------------------------------------

  orientation(shape) {
    return this.orientations[shape] || (this.view.shapes || {})[shape] || [[0, 0]];
  }

  /** The pieces the supply toolbar shows: the seat's, or during a Ghost split the new pieces
   * (only they may be placed at once). */
  supplyItems() {
    if (this.draft && this.draft.kind === "ghost") {
      return Object.entries(this.draft.pieces).map(([shape, count]) => ({ shape, count }));
    }
    return this.view.supply || [];
  }

  supplyCounts() {
    const counts = {};
    for (const item of this.supplyItems()) counts[item.shape] = item.count;
    for (const item of this.draft ? this.draft.items : []) counts[item.shape] = (counts[item.shape] || 0) - 1;
    return counts;
  }

  /** The legal placements of `shape` now: ordinary ones, or a Master / Ambassador draft's. */
  placementsFor(shape) {
    if (!this.draft) return ((this.view.placements || {})[shape] || []);
    const source = this.view[this.draft.kind];
    if (!source) return [];
    const used = new Set(this.draft.items.map((item) => item.card));
    if (this.draft.kind === "ambassador" && this.draft.items.length) return [];
    const found = [];
    for (const [card, options] of Object.entries(source.per_card || {})) {
      if (used.has(card)) continue;
      for (const option of options) if (option.shape === shape) found.push({ ...option, card });
    }
    return found;
  }

  /** The shape being moved: the dragged one, else the picked one. */
  activeShape() {
    return this.dragging ? this.dragging.shape : this.picked;
  }

  litCells() {
    const lit = new Set();
    const shape = this.activeShape();
    if (!shape || !this.view) return lit;
    for (const p of fittingPlacements(this.placementsFor(shape), this.orientation(shape))) {
      for (const [r, c] of p.cells) lit.add(`${p.card}:${r}:${c}`);
    }
    return lit;
  }

  legal(shape, card, cells) {
    const key = cellsKey(cells);
    return this.placementsFor(shape).find((p) => p.card === card && cellsKey(p.cells) === key) || null;
  }

  // --- showing ----------------------------------------------------------------------------

  /** Show (and have read out) a message at the foot of the screen (board.css); a confirmation
   * fades from sight after a while, an error stays until the next message. `card`: the puzzle
   * the player acted on, else they acted on the focused control; while that is at the foot, the
   * message sits at the screen's top instead, so it never hides what it speaks of. */
  say(text, kind = "info", card = null) {
    const box = document.getElementById("message");
    box.className = `message ${kind}`;
    put(box, text || "");
    clearTimeout(this.quietTimer);
    if (text && kind !== "error") this.quietTimer = setTimeout(() => box.classList.add("quiet"), QUIET_MS);
    const grid = card === null ? null : document.querySelector(`#puzzles svg.grid[data-card="${CSS.escape(card)}"]`);
    const near = grid ? grid.closest(".puzzle") : document.activeElement;
    if (text && near && near !== document.body && covers(box, near)) {
      box.classList.add("at-top");
      if (covers(box, near)) box.classList.remove("at-top"); // as tall as the screen: the foot then
    }
  }

  /** A control just focused must not be hidden under the message standing in sight (an error
   * stays): Tab scrolls it only just into sight, at the screen's foot, where the message is. The
   * message goes to the other end of the screen, unless it would cover the control there too. */
  uncover(focused) {
    const box = document.getElementById("message");
    if (!box.textContent || box.classList.contains("quiet") || !focused || focused === document.body) return;
    if (!covers(box, focused)) return;
    box.classList.toggle("at-top");
    if (covers(box, focused)) box.classList.toggle("at-top");
  }

  /** Announce, politely, what the other seats did since the last view heard (their lines of the
   * view's log); the seat's own moves are not, their answer says them. The first view says nothing. */
  hear(view) {
    const at = view.game.revision;
    const since = this.heardAt;
    if (since !== null && at <= since) return;
    this.heardAt = at;
    if (since === null) return;
    const from = view.log_from || [];
    const me = view.me ? view.me.seat : null;
    const lines = (view.log || []).filter((line, i) => from[i] && from[i].revision > since && from[i].seat !== me);
    if (lines.length) put(document.getElementById("heard"), texts(view.game.locale)("othersMoved", { moves: lines.join("; ") }));
  }

  setView(view) {
    // an answer can arrive after a live view of a later move (the other Line Clear holder's):
    // revisions only grow (an undo is a new revision too), so an older view is never drawn
    if (this.view && view.game.id === this.view.game.id && view.game.revision < this.view.game.revision) return;
    if (!this.planning) this.hear(view); // a plan's draft is not the table: live views are heard
    if (this.dragging || this.pressed) {
      this.deferredView = view;
      return;
    }
    this.heldRedraw = false;
    const focused = this.focusTrail();
    this.view = view;
    this.viewAt = Date.now();
    this.speak(view.game && view.game.locale);
    const counts = this.supplyCounts();
    if (this.picked && !(counts[this.picked] > 0)) this.picked = null;
    if (this.draft && !(view[this.draft.kind] && (this.draft.kind !== "ghost"
      || (view.offers || []).some((o) => o.action === this.draft.split)))) this.draft = null;
    if (this.cursor && !(view.puzzles || []).some((p) => cardOf(p).id === this.cursor.card)) this.cursor = null;
    this.upgradeFrom = this.upgradeFrom && counts[this.upgradeFrom] > 0 ? this.upgradeFrom : null;
    if (this.recycling && !this.recycleRow()) this.recycling = null;
    this.preview = null;
    render(this);
    this.updateKeyboardPreview();
    this.refocus(focused);
    if (this.lostMove && view.game.revision > this.lostMove.revision) this.settleLost(view);
  }

  liveView(view) {
    this.hear(view);
    const shown = this.planning ? this.realView : this.view;
    const newer = !shown || view.game.revision > shown.game.revision;
    if (this.planning) {
      if (newer) {
        this.realView = view;
        this.redraftAfterUpdate();
      }
    } else if (!this.view || view.game.stamp !== this.view.game.stamp || newer) {
      this.setView(view);
    }
    if (newer) this.refreshPlan();
  }

  /** Focus the control `key` names (scrolled into view unless `scroll` is false); false when it
   * is not there or cannot take the focus. */
  focusKey(key, scroll = true) {
    const target = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (!target) return false;
    if (target.getAttribute("role") === "gridcell") this.rove(target);
    target.focus({ preventScroll: !scroll });
    return document.activeElement === target;
  }

  /** The focused control's key, then the keys after it, then those before it (nearest first):
   * where the focus goes back after a redraw, the first of them still drawn, so a control the
   * redraw removed (the card taken, a choice made, the turn's last button) does not drop the
   * focus to the page's top. Empty when no control has the focus. */
  focusTrail() {
    const focused = document.activeElement;
    const key = focused && focused.dataset ? focused.dataset.key : null;
    if (!key) return [];
    const keys = [...document.querySelectorAll("[data-key]")].map((node) => node.dataset.key);
    const at = keys.indexOf(key);
    return [key, ...keys.slice(at + 1), ...keys.slice(0, Math.max(at, 0)).reverse()];
  }

  /** Give the focus back after a redraw, where the page is scrolled to now: a redraw (a live
   * update above all) must not move the page under the player. */
  refocus(trail) {
    trail.some((key) => this.focusKey(key, false));
  }

  repaint() {
    if (this.view) paint(this);
  }

  fail(error) {
    if (error instanceof ApiError && error.status === 403) this.showForbidden(error.body.error);
    else if (error instanceof NetworkError) this.say(this.t("unreachable"), "error");
    else if (unexplained(error)) this.say(this.t("serverTrouble"), "error");
    else this.say(this.t("error", { reason: error.message }), "error");
  }

  /** The page's words in `locale`'s language, and the server asked in it (api.js). */
  speak(locale) {
    this.t = texts(locale);
    this.api.setLanguage(spoken(locale));
  }

  /** The 403 page: the server's reason (said in the page's language: asked in it) and what to do,
   * or the page's own sentence saying both when the server gave none. */
  showForbidden(reason) {
    if (this.forbidden) return;
    this.forbidden = true;
    if (this.stopFollowing) this.stopFollowing();
    put(document.getElementById("turn-status"), "");
    put(document.getElementById("app"), h("div", { class: "forbidden", role: "alert" },
      h("h2", { text: "403" }), reason ? h("p", { class: "reason", text: reason }) : null,
      h("p", { text: this.t(reason ? "newLink" : "forbidden") })));
    this.say("");
  }

  // --- acting -----------------------------------------------------------------------------

  /** A request is in flight; presses wait for it to end (`settled`). */
  get busy() {
    return this.requestInFlight;
  }

  set busy(value) {
    this.requestInFlight = value;
    if (!value) this.idleWaiters.splice(0).forEach((resume) => resume());
  }

  /** Resolves once no request is in flight: a press made meanwhile waits for it rather than being
   * dropped (the live view of a move can be drawn before its own answer, or a live update can be
   * re-laying the plan, and the player may already act on what is shown). Each caller then goes
   * on only if what the press was made on is still shown, so a second tap of the same thing does
   * nothing. */
  async settled() {
    while (this.busy) await new Promise((resume) => this.idleWaiters.push(resume));
  }

  /** Send one action with the stamp this page saw; returns true when it was committed. `card`:
   * the puzzle it acts on, which its answer must not hide (`say`). */
  async act(body, card = null) {
    if (this.planning) return this.addStep(body);
    if (!this.view) return false;
    const seen = this.view.game.stamp;
    const revision = this.view.game.revision;
    await this.settled();
    const latest = this.deferredView || this.view; // the answer's view may wait for a press to end
    if (this.planning || !latest || latest.game.stamp !== seen) return false;
    this.busy = true;
    try {
      const answer = await this.api.act({ ...body, stamp: seen });
      this.busy = false;
      this.draft = null;
      this.upgradeFrom = null;
      this.recycling = null;
      if (answer.view) this.setView(answer.view);
      else this.reload(); // committed, but the server could not build the view: read it again
      this.say((answer.said || []).join(" "), "info", card);
      return true;
    } catch (error) {
      this.busy = false;
      if (error instanceof ApiError && error.status === 409 && error.body.view) {
        this.draft = null;
        const lost = this.lostMove;
        this.setView(error.body.view);
        // the board changed under a move whose answer was lost: it says what became of that move
        if (!lost || this.lostMove) this.say(this.t("stale"), "error", card);
      } else if (error instanceof ApiError && (error.status === 422 || error.status === 400) && error.body.error) {
        this.say(error.message, "error", card);
      } else if (error instanceof NetworkError || unexplained(error)) {
        this.busy = true; // a press meanwhile waits for the board read again
        await this.lostAnswer(revision, card);
      } else {
        this.fail(error);
      }
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** A move sent whose answer never came: the request, or only its answer, was lost (a phone's
   * network drops both ways), or a proxy answered in its place (`unexplained`). The move may well have been played, so "try again" would play it
   * twice once the page holds the board after it: the board is read again and tells, and if it
   * cannot be read now, the next view that comes (the live stream's) tells (`settleLost`). */
  async lostAnswer(revision, card) {
    this.lostMove = { revision, card };
    this.say(this.t("unreachable"), "error", card);
    let fresh;
    try {
      fresh = await this.api.view();
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) this.fail(error);
      return;
    }
    this.setView(fresh);
    this.settleLost(fresh);
  }

  /** Say what became of the move whose answer was lost, from `view`: played (a line of this
   * seat's in the log since), not played (the board as it was), or the board changed otherwise. */
  settleLost(view) {
    const lost = this.lostMove;
    if (!lost || !view || !view.game) return;
    this.lostMove = null;
    const me = view.me ? view.me.seat : null;
    const played = (view.log_from || []).some((line) => line.revision > lost.revision && line.seat === me);
    if (played) this.say(this.t("answerLost"), "info", lost.card);
    else if (view.game.revision > lost.revision) this.say(this.t("lostChanged"), "error", lost.card);
    else this.say(this.t("notPlayed"), "error", lost.card);
  }

  /** Read the view again (an action was committed but its answer came without the view); if
   * that fails too, the live stream brings it. */
  async reload() {
    try {
      this.setView(await this.api.view());
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) this.fail(error);
    }
  }

  /** A piece let go over a puzzle: commit it (or add it to a draft), else show the engine's reason. */
  async drop(shape, card, cells) {
    const legal = this.legal(shape, card, cells);
    if (legal && this.draft) {
      this.draft.items.push({ shape, card, cells: legal.cells });
      if (!(this.supplyCounts()[shape] > 0)) this.picked = null;
      this.redraw();
      // said: the drop changes only the drawing and the cells' names, which nothing reads out
      this.say(this.t("drafted", { shape, card, cells: legal.cells.map(([r, c]) => cellName(r, c)).join(" ") }), "info", card);
      return true;
    }
    if (legal) {
      this.picked = null;
      return this.act({ place: { shape, card, cells: legal.cells } }, card);
    }
    await this.explain(shape, card, cells);
    return false;
  }

  /** Ask the engine why a placement does not fit, and show its reason. */
  async explain(shape, card, cells) {
    const rule = this.draftRule(card);
    if (rule) {
      this.say(rule, "error", card);
      return;
    }
    if (!inside(cells)) { // no engine's reason for cells off the card: the page says it
      this.say(this.t("offEdge", { card }), "error", card);
      return;
    }
    if (this.planning) {
      try {
        await this.api.planDraft({ steps: [...this.planning.bodies, { place: { shape, card, cells } }], side: this.planning.side });
        this.say(this.t("springBack"), "error", card);
      } catch (error) {
        this.planRefused(error);
      }
      return;
    }
    try {
      const answer = await this.api.check({ place: { shape, card, cells }, stamp: this.view.game.stamp });
      this.say(answer.ok ? this.t("springBack") : answer.reason || this.t("springBack"), "error", card);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && error.body.view) {
        this.setView(error.body.view);
        this.say(this.t("stale"), "error", card);
      } else if (error instanceof ApiError && error.status !== 403 && !unexplained(error)) {
        this.say(error.message, "error", card);
      } else {
        this.fail(error);
      }
    }
  }

  /** The Master / Ambassador rule a drop on `card` breaks, in words; null when it breaks none.
   * The engine, asked about one placement alone, knows nothing of the draft: it would find the
   * piece fits, and the player would read "It does not fit there" with no reason. */
  draftRule(card) {
    if (!this.draft || !this.draft.items.length) return null;
    if (this.draft.kind === "ambassador") return this.t("ambassadorOnePiece");
    const rule = this.draft.kind === "ghost" ? "ghostOnePerPuzzle" : "masterOnePerPuzzle";
    return this.draft.items.some((item) => item.card === card) ? this.t(rule, { card }) : null;
  }

  redraw() {
    if (this.pressed && !this.dragging) {
      this.heldRedraw = true;
      return;
    }
    this.heldRedraw = false;
    const focused = this.focusTrail();
    render(this);
    this.updateKeyboardPreview();
    this.refocus(focused);
  }

  /** A press has ended (its click handled): draw what waited for it, unless a drag took over
   * (its end draws that). */
  releasePress() {
    if (this.pressed || this.dragging) return;
    if (!this.showDeferred() && this.heldRedraw) this.redraw();
  }

  endDrag() {
    this.dragging = null;
    this.preview = null;
    if (!this.showDeferred()) this.repaint();
  }

  /** Draw the view that waited for a drag or a press to end; false when none did. */
  showDeferred() {
    if (!this.deferredView) return false;
    const view = this.deferredView;
    this.deferredView = null;
    this.setView(view);
    return true;
  }

  // --- pieces: pick, turn, flip -----------------------------------------------------------

  pick(shape, fromKeyboard) {
    if (!this.view || this.view.me.spectator) return;
    this.picked = this.picked === shape ? null : shape;
    this.upgradeFrom = null;
    if (this.picked && fromKeyboard) {
      this.cursor = this.firstSpot(shape);
      this.redraw();
      if (this.cursor) this.focusKey(`cell:${this.cursor.card}:${this.cursor.r}:${this.cursor.c}`);
    } else {
      this.redraw();
    }
  }

  /** Where the keyboard cursor starts for a picked piece: its first legal spot, else a corner. */
  firstSpot(shape) {
    const cells = this.orientation(shape);
    const [first] = fittingPlacements(this.placementsFor(shape), cells);
    if (first) {
      const [r, c] = first.cells[leadCell(first.cells)];
      return { card: first.card, r, c };
    }
    const puzzles = this.view.puzzles || [];
    if (!puzzles.length) return null;
    const card = cardOf(puzzles[0]).id;
    return { card, r: 0, c: 0 };
  }

  turn() {
    this.reorient(turned);
  }

  flip() {
    this.reorient(flipped);
  }

  reorient(change) {
    const shape = this.activeShape();
    if (!shape) {
      this.say(this.t("pickFirst"));
      return;
    }
    this.orientations[shape] = change(this.orientation(shape));
    if (this.dragging) {
      this.dragging.cells = this.orientations[shape];
      this.dragging.onTurn();
      return;
    }
    this.redraw();
  }

  /** The keyboard preview: the picked piece drawn where the focused cell would put it. */
  updateKeyboardPreview() {
    if (this.dragging) return;
    const cell = document.activeElement;
    if (!this.picked || !cell || cell.getAttribute("role") !== "gridcell") {
      if (this.preview) {
        this.preview = null;
        this.repaint();
      }
      return;
    }
    const cells = this.orientation(this.picked);
    const spot = anchored(cells, leadCell(cells), +cell.dataset.r, +cell.dataset.c);
    this.preview = { card: cell.dataset.card, cells: spot.filter(([r, c]) => r >= 0 && r < 5 && c >= 0 && c < 5),
      ok: !!this.legal(this.picked, cell.dataset.card, spot) };
    this.repaint();
  }

  /** Enter, a click or a tap on a puzzle cell: place the picked piece there (none picked: say
   * to pick one, where the puzzle does not hide the words). */
  async placeAt(card, r, c) {
    if (!this.picked) {
      this.say(this.t("pickFirst"), "info", card);
      return;
    }
    const shape = this.picked;
    const cells = this.orientation(shape);
    this.cursor = { card, r, c };
    await this.drop(shape, card, anchored(cells, leadCell(cells), r, c));
  }

  rove(cell) {
    const grid = cell.closest("svg");
    for (const other of grid.querySelectorAll('[role="gridcell"]')) other.setAttribute("tabindex", other === cell ? "0" : "-1");
    this.cursor = { card: cell.dataset.card, r: +cell.dataset.r, c: +cell.dataset.c };
  }

  cancel() {
    if (this.cancelDrag && this.cancelDrag()) return; // a drag: only the piece in hand goes back
    const back = this.picked;
    const onGrid = document.activeElement && document.activeElement.getAttribute("role") === "gridcell";
    if (this.recycling) return this.cancelRecycle();
    if (this.upgradeFrom) this.upgradeFrom = null;
    else if (this.picked) this.picked = null;
    else if (this.draft) return this.cancelDraft();
    else return;
    this.redraw();
    if (back && onGrid) this.focusKey(`piece:${back}`);
  }

  // --- drafts (Master, Ambassador) and upgrades ---------------------------------------------

  startDraft(kind) {
    this.draft = { kind, items: [] };
    this.say(this.t(kind === "master" ? "masterHint" : "ambassadorHint"));
    this.redraw();
    this.focusKey("piece:" + ((this.view.supply || [])[0] || {}).shape);
  }

  /** A Ghost split pressed: its new pieces may be placed at once (one per puzzle) before the
   * split is sent, or none (Confirm at once: the plain split). */
  startGhost(offer) {
    const pieces = {};
    for (const shape of offer.action.split(" to ")[1].split(/\s+/)) pieces[shape] = (pieces[shape] || 0) + 1;
    this.draft = { kind: "ghost", split: offer.action, pieces, items: [] };
    this.picked = null;
    this.upgradeFrom = null;
    this.say(this.t("ghostHint", { split: offer.label }));
    this.redraw();
    this.focusKey("piece:" + Object.keys(pieces)[0]);
  }

  /** Drop the draft (Esc, Cancel): the focus goes back to the button that opened it, as out of a
   * Recycle (a Ghost split's new pieces, where it was, go with the draft). */
  cancelDraft() {
    const draft = this.draft;
    this.draft = null;
    this.redraw();
    if (draft) this.focusKey(draft.kind === "ghost" ? `offer:${draft.split}` : `btn:${draft.kind}`);
  }

  confirmDraft() {
    if (!this.draft || !(this.draft.items.length || this.draft.kind === "ghost")) return;
    const { kind, items } = this.draft;
    if (kind === "ghost") {
      const placed = items.map(({ shape, card, cells }) => `; ${shape} on ${card} at ${cells.map(([r, c]) => cellName(r, c)).join(" ")}`);
      this.act({ action: this.draft.split + placed.join("") });
      return;
    }
    this.act({ [kind]: items.map(({ shape, card, cells }) => ({ shape, card, cells })) });
  }

  /** A piece dropped on the reserve: show what it may be upgraded or exchanged for; when nothing
   * is (out of turn, a choice waiting), say so rather than show a reserve all greyed out. */
  startUpgrade(shape) {
    if (!(this.view.offers || []).some((o) => o.kind === "upgrade" && o.give === shape)) {
      this.say(this.t("noUpgrade", { shape }), "error");
      return;
    }
    this.upgradeFrom = shape;
    this.picked = null;
    this.redraw();
    const target = document.querySelector("#reserve .reserve-piece.target");
    if (target) target.focus();
  }

  cancelUpgrade() {
    this.upgradeFrom = null;
    this.redraw();
  }

  // --- Recycle: the player picks the order the row goes under its deck ----------------------

  /** The row being recycled, while the view still offers to recycle it (the left one in Line
   * Clear); else null. */
  recycleRow() {
    const colour = this.recycling && this.recycling.colour;
    if (!colour || !(this.view.offers || []).some((o) => o.kind === "recycle" && o.action.startsWith(`recycle ${colour} `))) return null;
    return ((this.view.table || {}).rows || []).find((row) => row.colour === colour && row.side !== "right") || null;
  }

  /** The order the row would go under: the cards picked, in the order picked, then the others
   * left to right (picking none keeps the row as it lies); `action` is the move that sends it. */
  recycleOrder(row) {
    const occupied = (row.cards || []).map((card, i) => (card ? i + 1 : null)).filter((slot) => slot !== null);
    const picked = this.recycling.picked.filter((slot) => occupied.includes(slot));
    const slots = [...picked, ...occupied.filter((slot) => !picked.includes(slot))];
    return { slots, action: `recycle ${this.recycling.colour} ${slots.join(" ")}` };
  }

  startRecycle(colour) {
    this.recycling = { colour, picked: [] };
    this.picked = null;
    this.upgradeFrom = null;
    this.redraw();
    const row = this.recycleRow();
    const first = row && row.cards.find((card) => card);
    if (first) this.focusKey(`recycle:${first.id}`);
  }

  /** A card of the row pressed: it goes next under the deck, or, picked already, leaves the order. */
  pickRecycle(slot) {
    if (!this.recycling) return;
    const picked = this.recycling.picked;
    this.recycling.picked = picked.includes(slot) ? picked.filter((s) => s !== slot) : [...picked, slot];
    this.redraw();
  }

  confirmRecycle() {
    const row = this.recycleRow();
    if (!row) return;
    this.act({ action: this.recycleOrder(row).action });
  }

  cancelRecycle() {
    const colour = this.recycling && this.recycling.colour;
    this.recycling = null;
    this.redraw();
    if (colour) this.focusKey(`offer:recycle:${colour}`);
  }

  // --- Plan mode: the seat's next turn laid out while others play (bot/web/planning.py) -------

  /** Ask for the seat's plan and what its last planned turn did, and show them. A plan gone with
   * no word yet on what it did is asked again a little later: the live view of a planned turn
   * can arrive before the server has heard its outcome. */
  async refreshPlan(retries = 3) {
    if (!this.view || this.view.me.spectator) return;
    const had = this.kept && this.kept.plan;
    try {
      this.kept = await this.api.plan();
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) this.fail(error);
      return;
    }
    if (had && !this.kept.plan && !this.kept.outcome && retries > 0) {
      this.kept.plan = had;
      setTimeout(() => this.refreshPlan(retries - 1), 400);
    }
    if (!this.dragging) this.redraw();
  }

  /** Enter Plan mode, from nothing or from the steps of the plan kept (on its Line Clear side). */
  async startPlan(bodies = [], side = null) {
    await this.settled();
    if (this.planning || !this.view || !this.view.me.plannable) return;
    this.realView = this.view;
    this.picked = null;
    this.draft = null;
    if (await this.redraft(bodies, side)) this.focusKey("btn:plan-save") || this.focusKey("btn:plan-stop");
  }

  /** The table moved under the draft: lay it out again — once the draft in flight is back, when
   * there is one (its answer was laid on the table before the update, and a turn that has come
   * since must still end Plan mode). */
  redraftAfterUpdate() {
    if (this.busy) {
      this.draftOutOfDate = true;
      return;
    }
    this.redraft(this.planning.bodies, this.planning.side, true);
  }

  /** Lay `bodies` out as a draft (nothing is kept): on success the page shows the table after
   * them; a refusal is said and changes nothing (after a live update, it ends Plan mode). */
  async redraft(bodies, side, afterUpdate = false) {
    if (this.busy) return false;
    this.busy = true;
    try {
      const answer = await this.api.planDraft({ steps: bodies, side });
      this.busy = false;
      this.planning = { bodies, side, steps: answer.plan.steps, open: answer.plan.open, laidSide: answer.plan.side };
      this.draft = null;
      this.upgradeFrom = null;
      this.showPlanView(answer.view);
      return true;
    } catch (error) {
      this.busy = false;
      if (afterUpdate) this.leavePlan(); // the table moved under the draft: back to the board as it is
      if (!this.planning) this.realView = null;
      this.planRefused(error);
      return false;
    } finally {
      this.busy = false;
      if (this.draftOutOfDate && this.planning) {
        this.draftOutOfDate = false;
        this.redraft(this.planning.bodies, this.planning.side, true);
      }
    }
  }

  /** Draw `view` in place of the one shown, whatever their revisions (a draft and the real board
   * share one); during a drag or a press, once it ends. */
  showPlanView(view) {
    if (this.dragging || this.pressed) {
      this.deferredView = view;
      return;
    }
    this.view = null;
    this.setView(view);
  }

  planRefused(error) {
    if (error instanceof ApiError && (error.status === 422 || error.status === 400) && error.body.error) this.say(error.message, "error");
    else this.fail(error);
  }

  async addStep(body) {
    const { bodies, side } = this.planning;
    await this.settled();
    if (!this.planning || this.planning.bodies !== bodies || this.planning.side !== side) return false;
    if (!this.planning.open) {
      this.say(this.t("planFull"), "error");
      return false;
    }
    const done = await this.redraft([...this.planning.bodies, body], this.planning.side);
    if (done) this.say(this.planning.steps.map((step) => step.text).slice(-1)[0] || "");
    return done;
  }

  async removeStep() {
    const bodies = this.planning && this.planning.bodies;
    await this.settled();
    if (this.planning && this.planning.bodies === bodies && bodies.length) this.redraft(bodies.slice(0, -1), this.planning.side);
  }

  async chooseSide(side) {
    await this.settled();
    if (this.planning && this.planning.side !== side) this.redraft(this.planning.bodies, side);
  }

  leavePlan() {
    if (!this.planning) return;
    this.planning = null;
    if (this.planNews) {
      this.planNews = false;
      this.refreshPlan(0);
    }
    this.draftOutOfDate = false;
    this.draft = null;
    const real = this.realView;
    this.realView = null;
    if (real) this.showPlanView(real);
  }

  stopPlanning() {
    this.leavePlan();
    this.say("");
    this.focusKey("btn:plan");
  }

  async savePlan() {
    await this.settled();
    if (!this.planning) return;
    // the side the draft was shown on, chosen or not: the plan is kept for it
    const body = { steps: this.planning.bodies, side: this.planning.side || this.planning.laidSide || null };
    await this.keepPlan(() => this.api.planSave(body), () => this.leavePlan(), "btn:plan-change");
  }

  async cancelPlan() {
    await this.settled();
    if (!this.kept || !(this.kept.plan || this.kept.outcome)) return; // a second tap: nothing is left to drop
    await this.keepPlan(() => this.api.planCancel(), () => this.redraw(), "btn:plan");
  }

  // One request that changes the kept plan: the page is busy until the answer, then shows it
  // (`show` redraws), says its sentence and moves the focus; a refusal is said the same way.
  async keepPlan(request, show, focus) {
    this.busy = true;
    let answer;
    try {
      answer = await request();
    } catch (error) {
      this.busy = false;
      this.planRefused(error);
      return;
    }
    this.busy = false;
    this.kept = answer;
    show();
    this.say(answer.said);
    this.focusKey(focus);
  }

  changePlan() {
    const plan = (this.kept && this.kept.plan) || {};
    this.startPlan((plan.steps || []).map((step) => ({ action: step.action })), plan.side || null);
  }
}
