// Drawing the seat's view: HTML for the layout and the controls, SVG for cards and pieces.
// `render(ui)` rebuilds everything from `ui.view`; `paint(ui)` only recolours puzzle cells
// (what a drag or the keyboard cursor lights), so a drag never loses its pointer.

import { h, put, s } from "./dom.js";
import { cellName, cellsKey, extent, GRID } from "./shapes.js";

const COLOURS = {
  1: "#f4c430", 2: "#5cb85c", I3: "#3d8bd9", L3: "#e8843a",
  I4: "#d9534f", O4: "#f08bb7", T4: "#8e6cc9", L4: "#2bb3a8", S4: "#9c6b3c",
};

export function pieceColour(shape) {
  return COLOURS[shape] || "#8a8f98";
}

/** The card object of a puzzle entry, whether the view gives the card or only its id. */
export function cardOf(entry) {
  if (!entry) return {};
  if (typeof entry.card === "string") return { ...entry, id: entry.card };
  if (entry.card && typeof entry.card === "object") return entry.card;
  return entry;
}

/** A puzzle's cells with their states ({r, c, state}), whichever field the view keeps them in. */
function cellStates(entry) {
  for (const list of [entry.state, entry.cells]) {
    if (Array.isArray(list) && list.length && typeof list[0] === "object" && !Array.isArray(list[0])) return list;
  }
  return [];
}

function pointsText(t, points) {
  return points === 1 ? t("point") : t("points", { n: points ?? 0 });
}

function cardLabel(t, card) {
  const parts = [card.id];
  if (card.points !== undefined) parts.push(pointsText(t, card.points));
  if (card.reward) parts.push(t("reward", { shape: card.reward }));
  return parts.join(", ");
}

/** A piece drawn in SVG, its cells one unit each. */
export function pieceSvg(shape, cells, extra = {}) {
  const [rows, cols] = extent(cells);
  return s("svg", { viewBox: `-0.08 -0.08 ${cols + 0.16} ${rows + 0.16}`, class: "piece-art",
    "aria-hidden": "true", focusable: "false", width: cols * 18, height: rows * 18, ...extra },
  cells.map(([r, c]) => s("rect", { x: c + 0.04, y: r + 0.04, width: 0.92, height: 0.92, rx: 0.14,
    fill: pieceColour(shape), class: "piece-cell" })));
}

/** A small drawing of a card: its id and points above its recess, its reward below (and, for a
 * puzzle open on someone's table, the `pieces` placed on it so far, in their colours). The words
 * are HTML around the SVG recess, not SVG text: SVG text shrinks with the card, and four cards
 * across a phone drew them at 7 px; HTML keeps them at the page's size whatever the card's width. */
function cardArt(card, pieces = []) {
  const recess = new Set((card.cells || []).map(([r, c]) => r * GRID + c));
  const filled = new Map();
  for (const piece of pieces) for (const [r, c] of piece.cells) filled.set(r * GRID + c, piece.shape);
  const cells = [];
  for (let r = 0; r < GRID; r += 1) {
    for (let c = 0; c < GRID; c += 1) {
      const shape = filled.get(r * GRID + c);
      const look = shape === undefined ? { class: "recess" } : { class: "piece-cell", fill: pieceColour(shape) };
      if (recess.has(r * GRID + c)) cells.push(s("rect", { x: c + 0.1, y: r + 0.1, width: 0.8, height: 0.8, rx: 0.12, ...look }));
    }
  }
  return h("div", { class: `card-art ${card.colour || ""}`, "aria-hidden": "true" },
    h("div", { class: "card-head" },
      h("span", { class: "card-id", text: card.id || "" }),
      h("span", { class: "card-points", text: card.points !== undefined ? `${card.points}★` : "" })),
    s("svg", { viewBox: "0 0 5 5", class: "card-recess", focusable: "false" }, cells),
    h("div", { class: "card-reward", text: card.reward ? `+${card.reward}` : "" }));
}

function status(ui) {
  const { view, t } = ui;
  const me = view.me || {};
  if (view.game && view.game.over) return view.result ? t("gameOverWon", { result: view.result.headline }) : t("gameOver");
  if (view.game && view.game.status === "cancelled") return t("gameCancelled"); // its table was ended: no one moves again
  if (me.spectator) return t("spectating");
  if (ui.planning) return ui.planning.steps.length === 1 ? t("planningOne") : t("planning", { n: ui.planning.steps.length });
  if (me.acting && me.held) return `${t("yourTurn")} ${t("actionsHeld")}`; // Finesse: Insert or End turn
  if (me.acting) {
    const left = me.actions_left;
    const count = left === undefined || left === null ? "" : ` ${left === 1 ? t("actionLeft") : t("actionsLeft", { n: left })}`;
    return `${t("yourTurn")}${count}`;
  }
  const current = (view.players || []).filter((p) => p.acting || p.current).map((p) => p.name);
  return current.length ? t("waiting", { name: current.join(", ") }) : "";
}

/** Rebuild the whole page from the view. */
export function render(ui) {
  const { view, t } = ui;
  document.documentElement.lang = view.game && view.game.locale === "pt-BR" ? "pt-BR" : "en";
  document.title = t("title");
  const watching = !!(view.me && view.me.spectator);
  document.body.classList.toggle("planning", !!ui.planning);
  document.body.classList.toggle("spectating", watching);
  put(document.getElementById("title"), t("title"));
  const line = status(ui);
  const bar = document.getElementById("turn-status");
  if (bar.textContent !== line) put(bar, line); // a live region: written (and read out) only when it changes
  put(document.getElementById("app"),
    result(ui),
    // a spectator has no puzzles, no pieces and nothing to turn: the seat's panel would be empty
    // headings and tools that can only say "Pick a piece first"
    watching ? null : h("section", { class: "mine", "aria-labelledby": "mine-h" },
      h("h2", { id: "mine-h", text: t("yourPuzzles") }),
      planBox(ui),
      pendingBox(ui),
      draftBar(ui),
      h("div", { id: "puzzles", class: "puzzles" }, (view.puzzles || []).map((p) => puzzle(ui, p))),
      h("h2", { id: "supply-h", text: t("yourPieces") }),
      supply(ui),
      controls(ui),
      h("p", { class: "hint", text: t("keysHint") })),
    h("section", { class: "table", "aria-labelledby": "table-h" },
      h("h2", { id: "table-h", text: t("onOffer") }),
      table(ui),
      h("h2", { id: "reserve-h", text: t("reserve") }),
      reserve(ui),
      finesse(ui)),
    h("section", { class: "others", "aria-labelledby": "players-h" },
      h("h2", { id: "players-h", text: t("players") }),
      players(ui),
      h("h2", { id: "log-h", text: t("log") }),
      h("ol", { class: "log" }, (view.log || []).map((line) => h("li", { text: line })))));
  paint(ui);
}

/** Who won, once the game is over (the server's words: the results image's headline and the
 * tie-breaks that settled it), across the top of the page. */
function result(ui) {
  const found = ui.view.result;
  if (!found) return null;
  return h("section", { class: "result", "aria-labelledby": "result-h" },
    h("h2", { id: "result-h", text: found.headline }),
    (found.notes || []).map((note) => h("p", { text: note })));
}

function puzzle(ui, entry) {
  const { t } = ui;
  const card = cardOf(entry);
  const id = card.id;
  const state = new Map(cellStates(entry).map((cell) => [cell.r * GRID + cell.c, cell.state]));
  const pieces = new Map();
  const mine = (ui.view.players || []).find((p) => ui.view.me && p.seat === ui.view.me.seat);
  const open = mine && (mine.puzzles || []).find((p) => p.id === id);
  for (const piece of (open && open.pieces) || []) for (const [r, c] of piece.cells) pieces.set(r * GRID + c, piece.shape);
  const cursor = ui.cursor && ui.cursor.card === id ? ui.cursor : null;
  const rows = [];
  for (let r = 0; r < GRID; r += 1) {
    const cells = [];
    for (let c = 0; c < GRID; c += 1) {
      const kind = state.get(r * GRID + c) || "blank";
      const tabbable = cursor ? cursor.r === r && cursor.c === c : r === 0 && c === 0;
      cells.push(s("rect", {
        x: c + 0.05, y: r + 0.05, width: 0.9, height: 0.9, rx: 0.12,
        role: "gridcell", tabindex: tabbable ? 0 : -1, class: `cell ${kind}`,
        "data-card": id, "data-r": r, "data-c": c, "data-state": kind,
        "data-key": `cell:${id}:${r}:${c}`, "aria-label": cellLabel(t, id, r, c, kind, false),
        fill: kind === "filled" && pieces.has(r * GRID + c) ? pieceColour(pieces.get(r * GRID + c)) : null,
      }));
    }
    rows.push(s("g", { role: "row" }, cells));
  }
  return h("div", { class: `puzzle ${card.colour || ""}`, role: "group", "aria-label": cardLabel(t, card), "data-card": id },
    h("div", { class: "puzzle-head", "aria-hidden": "true" },
      h("span", { class: "puzzle-id", text: id }),
      h("span", { class: "puzzle-points", text: card.points !== undefined ? `${card.points}★` : "" }),
      card.reward ? h("span", { class: "puzzle-reward", text: `+${card.reward}` }) : null),
    s("svg", { class: "grid", viewBox: "0 0 5 5", role: "grid", "aria-label": id, "data-card": id }, rows));
}

/** A puzzle cell's accessible name: filled, empty (and whether the piece in hand fits there), or
 * covered by the piece `drafted` on it in a Master / Ambassador draft, not placed yet. */
function cellLabel(t, card, r, c, kind, fits, drafted = null) {
  const cell = cellName(r, c);
  if (kind === "filled") return t("cellFilled", { card, cell });
  if (drafted) return t("cellDrafted", { card, cell, shape: drafted });
  if (kind === "recess") return t(fits ? "cellFits" : "cellEmpty", { card, cell });
  return `${card} ${cell}`;
}

function supply(ui) {
  const { view, t } = ui;
  const counts = ui.supplyCounts();
  return h("div", { class: "supply", role: "toolbar", "aria-labelledby": "supply-h", id: "supply" },
    ui.supplyItems().map((item) => {
      const n = counts[item.shape] ?? item.count;
      const picked = ui.picked === item.shape;
      return h("button", {
        type: "button", class: `piece${picked ? " picked" : ""}`, "data-shape": item.shape,
        "data-key": `piece:${item.shape}`, "aria-pressed": picked ? "true" : "false",
        "aria-label": t(picked ? "pieceSelected" : "piece", { shape: item.shape, n }),
        disabled: n <= 0 ? true : null,
      }, pieceSvg(item.shape, ui.orientation(item.shape)), h("span", { class: "count", "aria-hidden": "true", text: `×${n}` }));
    }));
}

function button(key, text, onclick, extra = {}) {
  return h("button", { type: "button", "data-key": key, text, onclick, ...extra });
}

function controls(ui) {
  const { view, t } = ui;
  const offers = view.offers || [];
  const act = (offer) => () => ui.act({ action: offer.action });
  const simple = offers.filter((o) => !["take", "draw", "upgrade", "recycle", "choose"].includes(o.kind));
  const level1 = simple.filter((o) => o.kind === "level1");
  const rest = simple.filter((o) => o.kind !== "level1");
  return h("div", { class: "controls", role: "group", "aria-label": t("actions") },
    button("btn:turn", t("turn"), () => ui.turn(), { class: "tool", "aria-keyshortcuts": "R" }),
    button("btn:flip", t("flip"), () => ui.flip(), { class: "tool", "aria-keyshortcuts": "F" }),
    level1.map((o) => button(`offer:${o.action}`, o.label, act(o), { class: "offer level1" })),
    view.master && !ui.draft ? button("btn:master", t("master"), () => ui.startDraft("master"), { class: "offer" }) : null,
    view.ambassador && !ui.draft ? button("btn:ambassador", t("ambassador"), () => ui.startDraft("ambassador"), { class: "offer" }) : null,
    rest.map((o) => button(`offer:${o.action}`, o.label, o.kind === "ghost" ? () => ui.startGhost(o) : act(o),
      { class: `offer ${o.kind.replace(/\s+/g, "-")}`, "aria-pressed": o.kind === "ghost" ? String(!!ui.draft && ui.draft.split === o.action) : null })),
    view.undo ? button("btn:undo", t("undo"), () => ui.act({ action: view.undo }), { class: "undo" }) : null);
}

function draftBar(ui) {
  const { t } = ui;
  if (!ui.draft) return null;
  const ghost = ui.draft.kind === "ghost";
  const split = ghost && ((ui.view.offers || []).find((o) => o.action === ui.draft.split) || {}).label;
  return h("div", { class: "draft-bar", role: "group", "aria-label": t(ui.draft.kind) },
    h("p", { text: ghost ? t("ghostHint", { split }) : t(ui.draft.kind === "master" ? "masterHint" : "ambassadorHint") }),
    h("ul", { class: "draft-list" }, ui.draft.items.map((item) => h("li", { text: `${item.shape} → ${item.card} ${item.cells.map(([r, c]) => cellName(r, c)).join(" ")}` }))),
    button("btn:confirm", t("confirm"), () => ui.confirmDraft(), { class: "confirm", disabled: ui.draft.items.length || ghost ? null : true }),
    button("btn:cancel", t("cancel"), () => ui.cancelDraft(), { class: "cancel" }));
}

function pendingBox(ui) {
  const { view, t } = ui;
  const pending = view.pending;
  if (!pending) return null;
  const options = pending.options && pending.options.length ? pending.options
    : (view.offers || []).filter((o) => o.kind === "choose");
  return h("div", { class: "pending", role: "group", "aria-label": t("pending") },
    h("p", { text: pending.about ? `${t("pending")} ${pending.about}` : t("pending") }),
    options.map((o) => button(`offer:${o.action}`, o.label, () => ui.act({ action: o.action }), { class: "offer choose" })));
}

function stepList(t, steps) {
  return h("ol", { class: "plan-steps" }, steps.map((step) => h("li", {
    text: step.card ? t("planStepCard", { action: step.text, card: step.card }) : step.text })));
}

/** Plan mode's panel: the plan being laid out (save, remove a step, stop), else the plan kept
 * (change, cancel), else what the last planned turn did, else the way in. */
function planBox(ui) {
  const { view, t } = ui;
  const plan = ui.planning;
  const kept = ui.kept || {};
  const box = (title, ...children) => h("div", { class: "plan", role: "group", "aria-labelledby": "plan-h" },
    h("h3", { id: "plan-h", class: "plan-title", text: title }), ...children);
  if (plan) {
    const sides = view.table && view.table.kind === "lineclear"
      ? ["left", "right"].map((side) => button(`btn:plan-side:${side}`, t(side === "left" ? "planLeft" : "planRight"), () => ui.chooseSide(side),
        { class: "side", "aria-pressed": plan.laidSide === side ? "true" : "false" }))
      : [];
    return box(t("planTitle"),
      h("p", { class: "hint", text: t("planHint") }),
      plan.steps.length ? stepList(t, plan.steps) : h("p", { text: t("planNoSteps") }),
      plan.open ? null : h("p", { text: t("planFull") }),
      h("div", { class: "plan-buttons" },
        sides,
        button("btn:plan-save", t("savePlan"), () => ui.savePlan(), { class: "confirm", disabled: plan.steps.length ? null : true }),
        button("btn:plan-remove", t("removeStep"), () => ui.removeStep(), { disabled: plan.steps.length ? null : true }),
        button("btn:plan-stop", t("stopPlanning"), () => ui.stopPlanning(), { class: "cancel" })));
  }
  if (view.me.spectator) return null;
  if (kept.plan) {
    return box(t("planTitle"), stepList(t, kept.plan.steps), h("p", { text: t("planWaits") }),
      h("div", { class: "plan-buttons" },
        view.me.plannable ? button("btn:plan-change", t("changePlan"), () => ui.changePlan()) : null,
        button("btn:plan-cancel", t("cancelPlan"), () => ui.cancelPlan(), { class: "cancel" })));
  }
  const way = view.me.plannable ? button("btn:plan", t("plan"), () => ui.startPlan(), { class: "offer plan-start" }) : null;
  if (kept.outcome) {
    return box(t("lastPlan"), h("p", { class: "plan-outcome", text: kept.outcome.text }),
      h("div", { class: "plan-buttons" }, way, button("btn:plan-dismiss", t("dismiss"), () => ui.cancelPlan(), { class: "cancel" })));
  }
  // out of turn in Finishing Touches there is no Plan button: say why
  if (!way && view.game.phase === "finishing" && !view.game.over && !view.me.acting) return h("p", { class: "hint plan-none", text: t("planNotNow") });
  return way;
}

function slotAction(table, row, slot) {
  if (table.kind === "solo") return `take ${slot}`;
  if (table.kind === "lineclear" && row.side && table.side && row.side !== table.side) return null;
  return `take ${row.colour} ${slot}`;
}

/** A press on a card or deck not on offer: sent all the same, for the server to refuse with the
 * engine's reason (not your turn, four puzzles held…), which the page says; nothing changes. A
 * spectator's page sends nothing (it may not act), nor does a finished or cancelled game's (no
 * move is left in it), nor a slot no action names (the other Line Clear side's). */
function whyNot(ui, action) {
  return action && !ui.view.me.spectator && ui.view.game.status === "active" && !ui.view.game.over ? () => ui.act({ action }) : null;
}

function table(ui) {
  const { view, t } = ui;
  const tbl = view.table || { kind: "rows", rows: [], decks: {} };
  const offers = new Map((view.offers || []).map((o) => [o.action, o]));
  let slotBase = 0;
  const decksShown = new Set();
  const sidesShown = new Set();
  const rows = (tbl.rows || []).map((row, index) => {
    const base = slotBase;
    slotBase += (row.cards || []).length;
    const label = [row.colour ? t(row.colour) : "", row.side ? t(row.side) : ""].filter(Boolean).join(" ");
    const colour = row.colour;
    // a recycled row is the left one in Line Clear (the White-marker holder's)
    const recycle = colour && row.side !== "right" && (view.offers || []).find((o) => o.kind === "recycle" && o.action.startsWith(`recycle ${colour} `));
    const recycling = recycle && ui.recycling && ui.recycling.colour === colour ? ui.recycleOrder(row) : null;
    const cards = (row.cards || []).map((card, i) => {
      if (!card) return h("div", { class: "slot empty", role: "img", "aria-label": t("emptySlot") });
      if (recycling) return recycleSlot(ui, card, i + 1, recycling);
      const action = slotAction(tbl, row, tbl.kind === "solo" ? base + i + 1 : i + 1);
      const offer = (view.offers || []).find((o) => o.kind === "take" && o.card === card.id) || (action && offers.get(action));
      // the button lies over the drawing: its name is the card's, with no visible text to contradict it
      return h("div", { class: `slot card ${card.colour || ""}` }, cardArt(card), h("button", {
        type: "button", class: "slot-button", "data-key": `card:${card.id}`, "data-card": card.id,
        "aria-label": `${cardLabel(t, card)}${offer ? `, ${t("take")}` : ""}`, "aria-disabled": offer ? null : "true",
        onclick: offer ? () => ui.act({ action: offer.action }) : whyNot(ui, action),
      }));
    });
    const draw = colour && offers.get(`draw ${colour}`) || (tbl.kind === "solo" && index === 0 && offers.get("draw"));
    const decks = tbl.decks || {};
    const left = colour ? decks[colour] : decks.deck;
    const showDeck = colour ? !decksShown.has(colour) : index === 0;
    decksShown.add(colour);
    const locks = tbl.kind === "solo" ? (tbl.locks || []).map((n, col) => h("span", { class: "lock",
      text: t(n === 0 ? "lockOpen" : n === 1 ? "lockOne" : "locks", { col: col + 1, n }) })) : [];
    const sideTitle = tbl.kind === "lineclear" && row.side && !sidesShown.has(row.side) ? markerTitle(ui, tbl, row.side) : null;
    sidesShown.add(row.side);
    return [sideTitle, h("div", { class: `row ${colour || "grid"}`, role: "group", "aria-label": label || t("onOffer"),
      "data-colour": colour || null, "data-side": row.side || null },
      showDeck && left !== undefined ? h("button", {
        type: "button", class: `deck ${colour || ""}`, "data-key": `deck:${colour || "solo"}:${index}`,
        "aria-label": t("draw", { colour: colour ? t(colour) : "", n: left }), "aria-disabled": draw ? null : "true",
        onclick: draw ? () => ui.act({ action: draw.action }) : whyNot(ui, colour ? `draw ${colour}` : "draw"),
      }, h("span", { "aria-hidden": "true", text: String(left) })) : null,
      h("div", { class: "cards" }, locks, cards),
      recycle && !recycling ? button(`offer:recycle:${colour}`, `${t("recycle")} ${t(colour)}`, () => ui.startRecycle(colour), { class: "recycle" }) : null,
      recycling ? recyclePanel(ui, row, recycling) : null)];
  });
  const mastermind = tbl.mastermind ? h("p", { class: "mastermind", text: t("mastermind", {
    points: tbl.mastermind.points ?? 0, puzzles: tbl.mastermind.completed, pieces: tbl.mastermind.supply }) }) : null;
  return h("div", { class: `offer-table ${tbl.kind}` }, rows.flat(), mastermind);
}

/** Line Clear: whose turn a side's rows are, by the marker its holder has (the White marker plays
 * the left rows, the Black marker the right ones). */
function markerTitle(ui, tbl, side) {
  const { view, t } = ui;
  const seat = (tbl.markers || {})[side === "left" ? "white" : "black"];
  const holder = (view.players || []).find((p) => p.seat === seat);
  return h("h3", { class: "side-title", text: t(side === "left" ? "sideLeft" : "sideRight", { name: holder ? holder.name : "" }) });
}

/** A card of the row being recycled: a toggle that puts it next under the deck (or takes it out
 * of the order picked), its place in the order drawn under it and said in its name. */
function recycleSlot(ui, card, slot, order) {
  const { t } = ui;
  const at = order.slots.indexOf(slot) + 1;
  const picked = ui.recycling.picked.includes(slot);
  return h("div", { class: `slot card recycle-slot ${card.colour || ""}${picked ? " recycle-picked" : ""}` }, cardArt(card),
    h("span", { class: "recycle-at", "aria-hidden": "true", text: String(at) }),
    h("button", {
      type: "button", class: "slot-button", "data-key": `recycle:${card.id}`, "data-card": card.id,
      "aria-pressed": picked ? "true" : "false", "aria-label": `${cardLabel(t, card)}, ${t("recycleAt", { n: at })}`,
      onclick: () => ui.pickRecycle(slot),
    }));
}

/** Recycling a row: how the order is picked, the order it makes, and Recycle / Cancel. */
function recyclePanel(ui, row, order) {
  const { t } = ui;
  const ids = order.slots.map((slot) => row.cards[slot - 1].id);
  return h("div", { class: "recycle-panel", role: "group", "aria-label": t("recycleTitle", { colour: t(row.colour) }) },
    h("p", { text: t("recycleHint") }),
    h("p", { class: "recycle-order", text: t("recycleOrder", { cards: ids.join(", ") }) }),
    button("btn:recycle-confirm", t("recycleConfirm"), () => ui.confirmRecycle(), { class: "confirm" }),
    button("btn:recycle-cancel", t("cancel"), () => ui.cancelRecycle(), { class: "cancel" }));
}

/** A press on a reserve piece not on offer: with a piece picked, that upgrade is asked for (the
 * engine's reason is said; nothing changes); the monomino, the level-1 piece, the same; with
 * nothing picked, how an upgrade is made. Nothing on a page that may not act. */
function reserveWhyNot(ui, giving, shape) {
  if (ui.view.me.spectator || ui.view.game.status !== "active" || ui.view.game.over) return null;
  if (giving) return () => ui.act({ action: `upgrade ${giving} to ${shape}` });
  if (shape === "1") return () => ui.act({ action: "level1" });
  return () => ui.say(ui.t("upgradeHint"));
}

function reserve(ui) {
  const { view, t } = ui;
  const giving = ui.upgradeFrom || ui.picked;
  const upgrades = giving
    ? new Map((view.offers || []).filter((o) => o.kind === "upgrade" && o.action.startsWith(`upgrade ${giving} to `))
      .map((o) => [o.action.split(" to ")[1], o]))
    : new Map();
  const level1 = (view.offers || []).find((o) => o.kind === "level1");
  const pieces = Object.entries(view.reserve || {}).map(([shape, n]) => {
    const offer = upgrades.get(shape) || (!giving && shape === "1" ? level1 : null);
    const cells = (view.shapes || {})[shape] || [[0, 0]];
    return h("button", {
      type: "button", class: `reserve-piece${ui.upgradeFrom && upgrades.has(shape) ? " target" : ""}`, "data-shape": shape,
      "data-key": `reserve:${shape}`, "aria-label": offer ? `${t("reservePiece", { shape, n })}, ${offer.label}` : t("reservePiece", { shape, n }),
      "aria-disabled": offer ? null : "true", onclick: offer ? () => ui.act({ action: offer.action }) : reserveWhyNot(ui, giving, shape),
    }, pieceSvg(shape, cells), h("span", { class: "count", "aria-hidden": "true", text: `×${n}` }));
  });
  return h("div", { class: `reserve${ui.upgradeFrom ? " upgrading" : ""}`, id: "reserve", role: "group", "aria-labelledby": "reserve-h" },
    ui.upgradeFrom ? h("p", { class: "upgrade-title", text: t("upgradeTo", { shape: ui.upgradeFrom }) }) : null,
    h("div", { class: "reserve-pieces" }, pieces),
    ui.upgradeFrom ? button("btn:cancel-upgrade", t("cancel"), () => ui.cancelUpgrade(), { class: "cancel" }) : null);
}

function finesse(ui) {
  const { view, t } = ui;
  const f = view.finesse;
  const credits = view.me && view.me.credits;
  if (!f && !credits) return null;
  return h("div", { class: "finesse", role: "group", "aria-label": t("finesse") },
    h("h2", { text: t("finesse") }),
    f && f.live ? h("p", { class: "live-tile", text: `${t("liveTile")}: ${f.live.text || f.live.id}` }) : null,
    f && f.row ? h("ol", { class: "tile-row", "aria-label": t("tileRow") }, f.row.map((tile, i) => h("li", {
      class: tile === null ? "face-down" : f.live && f.live.id === tile ? "live" : null,
      text: tile === null ? t("faceDownTile") : `${(f.row_text || [])[i] || tile}${f.live && f.live.id === tile ? ` — ${t("live")}` : ""}`,
    }))) : null,
    f ? h("p", { text: `${t("bank")}: ${f.bank}; ${t("faceDown")}: ${f.face_down}` }) : null,
    credits ? h("p", { class: "credits", text: `${t("credits")}: ${credits.active} ${t("active")}, ${credits.inactive} ${t("inactive")}` }) : null);
}

function players(ui) {
  const { view, t } = ui;
  const mySeat = view.me ? view.me.seat : null;
  const won = new Set(view.result ? view.result.winners : []);
  const markers = (view.table && view.table.markers) || {};
  const credits = (view.finesse && view.finesse.credits) || [];
  return h("ul", { class: "players" }, (view.players || []).map((p) => {
    const supplyList = Object.entries(p.supply || {}).filter(([, n]) => n > 0).map(([shape, n]) => `${shape}×${n}`).join(" ");
    const score = p.score === null || p.score === undefined ? t("scoreHidden") : t("score", { n: p.score });
    return h("li", { class: `player${p.acting || p.current ? " current" : ""}${p.seat === mySeat ? " me" : ""}`, "data-seat": p.seat },
      h("span", { class: "name", text: p.name }),
      p.seat === mySeat ? h("span", { class: "tag", text: ` (${t("you")})` }) : null,
      p.acting || p.current ? h("span", { class: "tag playing", text: ` · ${t("playing")}` }) : null,
      won.has(p.seat) ? h("span", { class: "tag won", text: ` · ${t("won")}` }) : null,
      markers.white === p.seat ? h("span", { class: "tag marker", text: ` · ${t("whiteMarker")}` }) : null,
      markers.black === p.seat ? h("span", { class: "tag marker", text: ` · ${t("blackMarker")}` }) : null,
      h("span", { class: "facts", text: ` — ${score}, ${t("completed", { n: p.completed ?? 0 })}` }),
      h("span", { class: "facts supply-list", text: supplyList ? `; ${t("supplyOf", { list: supplyList })}` : "" }),
      credits[p.seat] ? h("span", { class: "facts credits", text: `; ${t("creditsOf", credits[p.seat])}` }) : null,
      p.seat === mySeat ? null : openPuzzles(t, p));
  }));
}

/** A seat's open puzzles as everyone sees them on the table (face up, with the pieces placed so
 * far): without them a spectator sees no puzzle at all, and a player none of the others'. */
function openPuzzles(t, player) {
  const open = player.puzzles || [];
  if (!open.length) return null;
  return h("div", { class: "their-puzzles", role: "group", "aria-label": t("puzzlesOf", { name: player.name }) },
    open.map((card) => {
      const filled = (card.pieces || []).reduce((n, piece) => n + piece.cells.length, 0);
      const progress = t("cellsFilled", { n: filled, size: (card.cells || []).length });
      return h("div", { class: "their-puzzle", role: "img", "aria-label": `${cardLabel(t, card)}, ${progress}` }, cardArt(card, card.pieces));
    }));
}

/** Recolour the puzzle cells: lit where the piece fits, the preview under the piece, the draft. */
export function paint(ui) {
  const { t } = ui;
  const lit = ui.litCells();
  const preview = ui.preview;
  const previewKeys = preview ? new Set(preview.cells.map(([r, c]) => `${preview.card}:${r}:${c}`)) : new Set();
  const drafted = new Map();
  for (const item of ui.draft ? ui.draft.items : []) {
    for (const [r, c] of item.cells) drafted.set(`${item.card}:${r}:${c}`, item.shape);
  }
  for (const rect of document.querySelectorAll("#puzzles rect.cell")) {
    const key = `${rect.dataset.card}:${rect.dataset.r}:${rect.dataset.c}`;
    const fits = lit.has(key);
    rect.classList.toggle("fits", fits);
    rect.classList.toggle("preview-ok", previewKeys.has(key) && preview.ok);
    rect.classList.toggle("preview-bad", previewKeys.has(key) && !preview.ok);
    rect.classList.toggle("drafted", drafted.has(key));
    if (drafted.has(key)) rect.style.setProperty("--draft", pieceColour(drafted.get(key)));
    rect.setAttribute("aria-label", cellLabel(t, rect.dataset.card, +rect.dataset.r, +rect.dataset.c, rect.dataset.state,
      fits, drafted.get(key)));
  }
}

export { cellsKey };
