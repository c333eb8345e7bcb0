// The game page: map, the seat's orders (typed or picked from the legal-order tree), readiness,
// deadline, press and history; live through the game's server-sent events.
// Generic over the rule family: it reads the public view, the option tree (place -> kind -> ... ->
// order text) and order texts, and asks the server for the map.
import {
  api, ApiError, describeDuration, el, errorText, forgetSeat, gmToken, playerName, province,
  savePlayerName, saveSeatToken, seatTokens,
} from "./common.js";

const gameId = document.body.dataset.gameId;
const $ = (id) => document.getElementById(id);

const state = {
  seat: null, // the seat this page plays, if any
  token: null,
  view: null, // public or seat view
  tree: null, // the seat's legal-order tree
  history: [],
  historyIndex: null, // null: the current position; else a phase of the history
  drafts: [], // [{text, loc, ok, error}]
  draftsPhase: null,
  selected: null, // the location of the unit being ordered
  target: null,
  mapPlaces: new Set(), // provinces drawn on the current map
  colours: {}, // power -> colour, from the map
  version: -1,
  busy: false,
};

// ------------------------------------------------------------------ seat and loading
function chooseSeat() {
  const tokens = seatTokens(gameId);
  const wanted = new URLSearchParams(location.search).get("seat");
  const seat = wanted && tokens[wanted] ? wanted : Object.keys(tokens)[0] || null;
  state.seat = seat;
  state.token = seat ? tokens[seat] : null;
}

function announce(text) {
  $("announce").textContent = text;
}

async function loadAll() {
  if (state.busy) {
    state.again = true;
    return;
  }
  state.busy = true;
  try {
    do {
      state.again = false;
      await loadOnce();
    } while (state.again);
  } finally {
    state.busy = false;
  }
}

async function loadOnce() {
  let view;
  try {
    view = state.token
      ? await api("GET", `/api/games/${gameId}/seat`, { token: state.token })
      : await api("GET", `/api/games/${gameId}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 403 && state.seat) {
      forgetSeat(gameId, state.seat); // a token the server no longer knows
      chooseSeat();
      return loadOnce();
    }
    announce(`Could not load the game: ${errorText(error)}`);
    return;
  }
  const first = !state.view || state.reset;
  const phaseChanged = !first && state.view.phase_index !== view.phase_index;
  state.reset = false;
  state.view = view;
  state.version = view.version;
  if (first || phaseChanged || state.history.length !== view.phase_index) {
    state.history = await api("GET", `/api/games/${gameId}/history`);
  }
  if (phaseChanged) {
    state.selected = state.target = null;
    announce(`Phase processed: now ${view.phase}.`);
  }
  const acting = state.seat && view.acting.includes(state.seat);
  state.tree = acting ? await api("GET", `/api/games/${gameId}/options`, { token: state.token }) : null;
  if (view.seat && (first || state.draftsPhase !== view.phase)) {
    state.drafts = view.seat.orders.map((text) => ({ text, loc: orderLoc(text), ok: true, error: null }));
    state.draftsPhase = view.phase;
  }
  render();
  if (state.historyIndex === null || phaseChanged) await showMap();
}

// ------------------------------------------------------------------ rendering
// Re-rendering replaces buttons; give the focus back to the same control afterwards.
function focusKey() {
  const node = document.activeElement;
  if (!node || node === document.body) return null;
  if (node.id) return `#${CSS.escape(node.id)}`;
  const box = node.closest("[id]");
  if (!box || node.tagName !== "BUTTON") return null;
  return { box: box.id, text: node.textContent };
}

function restoreFocus(key) {
  if (!key || (typeof key === "string" && document.activeElement && document.activeElement.matches(key))) return;
  if (typeof key === "string") {
    const node = document.querySelector(key);
    if (node && !node.closest("[hidden]")) node.focus();
    return;
  }
  const box = document.getElementById(key.box);
  const same = box && [...box.querySelectorAll("button")].find((b) => b.textContent === key.text);
  if (same) same.focus();
}

function render() {
  const key = focusKey();
  renderAll();
  restoreFocus(key);
}

function renderAll() {
  const view = state.view;
  document.title = `${view.title} · ${view.phase} · interboard`;
  $("game-title").textContent = view.title;
  $("phase").textContent = view.phase;
  $("status").textContent = view.status + (view.result ? ` (${describeResult(view.result)})` : "");
  $("seat-name").textContent = state.seat || "spectator";
  tick();
  renderPowers();
  renderCharts();
  renderJoin();
  renderOrders();
  renderPress();
  renderGm();
  renderHistoryBar();
  renderResults();
  paintSwatches();
}

// The powers' colours are the map's: read from it, shown beside seat names.
function paintSwatches() {
  for (const node of document.querySelectorAll(".swatch[data-power]")) {
    const colour = state.colours[node.dataset.power];
    if (colour) node.style.background = colour;
  }
}

function describeResult(result) {
  if (result.winners) return `won by ${result.winners.join(", ")}`;
  if (result.draw) return `drawn: ${result.draw.join(", ")}`;
  return JSON.stringify(result);
}

function tick() {
  const view = state.view;
  if (!view) return;
  const node = $("countdown");
  if (!view.deadline) {
    node.textContent = view.status === "active" ? "none: moves on when every seat is ready" : "—";
    return;
  }
  const left = (Date.parse(view.deadline) - Date.now()) / 1000;
  node.textContent = left > 0 ? `${describeDuration(left)} left` : "due: processing…";
  node.title = new Date(view.deadline).toLocaleString();
}

// The seats with what the family's view counts for each: Diplomacy's centres and units (lists per
// seat), or any family's position.counts ({column: {seat: number}}); in a team game (position.teams,
// lists of seats) each seat's team with the team's totals.
function renderPowers() {
  const view = state.view;
  const pos = view.position || {};
  const count = (table, seat) => (table && table[seat] ? table[seat].length : 0);
  const counts = pos.counts && typeof pos.counts === "object" ? pos.counts : {};
  const columns = Object.keys(counts);
  const teams = Array.isArray(pos.teams) ? pos.teams : [];
  const turn = view.pending && view.status === "active" ? view.pending.turn : null;
  const teamOf = (seat) => teams.findIndex((team) => team.includes(seat));
  const teamText = (k) => {
    const totals = columns.map((c) => `${teams[k].reduce((n, s) => n + (Number(counts[c][s]) || 0), 0)} ${c}`);
    return `Team ${k + 1}` + (totals.length ? `: ${totals.join(", ")}` : "");
  };
  const rows = view.seats.map((s) => el("tr", { class: [s.seat === state.seat ? "mine" : "", s.seat === turn ? "turn" : ""].join(" ").trim() || null },
    el("th", { scope: "row" }, el("span", { class: "swatch", dataset: { power: s.seat } }), s.seat,
      s.seat === turn ? el("span", { class: "to-play" }, " ▶ to play") : null),
    el("td", {}, s.kind === "player" ? s.player : s.kind),
    teams.length ? el("td", { class: "team" }, teamOf(s.seat) >= 0 ? teamText(teamOf(s.seat)) : "") : null,
    pos.centres ? el("td", {}, count(pos.centres, s.seat)) : null,
    pos.units ? el("td", {}, count(pos.units, s.seat)) : null,
    ...columns.map((c) => el("td", { dataset: { count: c } }, counts[c][s.seat] ?? "")),
    el("td", {}, view.acting.includes(s.seat) ? (view.submitted.includes(s.seat) ? "✓" : "…") : "—"),
    el("td", {}, s.ready ? "✓" : "")));
  $("powers").replaceChildren(el("table", { class: "powers" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "seat"), el("th", { scope: "col" }, "player"),
      teams.length ? el("th", { scope: "col" }, "team") : null,
      pos.centres ? el("th", { scope: "col" }, "centres") : null,
      pos.units ? el("th", { scope: "col" }, "units") : null,
      ...columns.map((c) => el("th", { scope: "col" }, c)),
      el("th", { scope: "col" }, "ordered"), el("th", { scope: "col" }, "ready"))),
    el("tbody", {}, rows)));
}

// A family may give series by round (view.position.charts: {title: {seat: [value, ...]}}): each is
// drawn as a small line chart in the seats' colours, with its values in a table for screen readers.
function renderCharts() {
  const charts = (state.view.position && state.view.position.charts) || {};
  const titles = Object.keys(charts).filter((t) => Object.values(charts[t]).some((s) => s.length));
  $("charts-panel").hidden = !titles.length;
  $("charts").replaceChildren(...titles.map((title) => lineChart(title, charts[title])));
}

const SVG = "http://www.w3.org/2000/svg";

function lineChart(title, series) {
  const W = 320, H = 120, PAD = 24;
  const names = Object.keys(series).filter((k) => series[k].length);
  const rounds = Math.max(...names.map((k) => series[k].length));
  const top = Math.max(1, ...names.flatMap((k) => series[k]));
  const x = (i) => PAD + (rounds > 1 ? (i * (W - 2 * PAD)) / (rounds - 1) : 0);
  const y = (v) => H - PAD + 4 - (v / top) * (H - 2 * PAD);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${title} by round`);
  const palette = ["#5a5a5a", "#a8322d", "#e08a1e", "#c8a35a", "#3f7a3a", "#2f6fa8", "#7a4fa8"];
  const colours = state.colours || {};
  for (const [k, name] of names.entries()) {
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", series[name].map((v, i) => `${x(i)},${y(v)}`).join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", colours[name] || palette[k % palette.length]);
    line.setAttribute("stroke-width", "2");
    line.dataset.series = name;
    svg.append(line);
  }
  const axis = document.createElementNS(SVG, "text");
  axis.setAttribute("x", "2");
  axis.setAttribute("y", "12");
  axis.setAttribute("font-size", "10");
  axis.textContent = String(top);
  svg.append(axis);
  const table = el("table", { class: "chart-values" },
    el("caption", {}, title),
    el("tr", {}, el("th", { scope: "col" }, "round"), ...names.map((n) => el("th", { scope: "col" }, n))),
    ...Array.from({ length: rounds }, (_, i) => el("tr", {}, el("th", { scope: "row" }, String(i + 1)),
      ...names.map((n) => el("td", {}, series[n][i] === undefined ? "" : String(series[n][i]))))));
  return el("figure", { class: "chart-figure", dataset: { chart: title } }, el("figcaption", {}, title), svg,
    el("details", {}, el("summary", {}, "values"), table));
}

function renderJoin() {
  const view = state.view;
  const open = view.seats.filter((s) => s.kind === "open");
  const mine = Object.keys(seatTokens(gameId));
  const panel = $("join-panel");
  // Spectators may take a seat; a browser holding several seats switches between them here.
  panel.hidden = !(open.length && view.status !== "finished" && !state.seat) && mine.length < 2;
  $("join-h").textContent = state.seat ? "Your seats" : "Take a seat";
  $("join-name").value ||= playerName();
  $("open-seats").replaceChildren(...(state.seat ? [] : open).map((s) =>
    el("button", { type: "button", onclick: () => join(s.seat) }, `Join as ${s.seat}`)));
  $("my-seats").replaceChildren(mine.length > 1
    ? el("p", {}, "Your seats here: ", mine.map((seat) => el("a", {
      href: `/games/${gameId}?seat=${encodeURIComponent(seat)}`, "aria-current": seat === state.seat ? "page" : null,
    }, seat, " ")))
    : "");
}

async function join(seat) {
  const name = $("join-name").value.trim();
  savePlayerName(name);
  try {
    const answer = await api("POST", `/api/games/${gameId}/join`, { body: { seat, player: name } });
    saveSeatToken(gameId, seat, answer.token);
    history.replaceState(null, "", `/games/${gameId}?seat=${encodeURIComponent(seat)}`);
    chooseSeat();
    state.reset = true; // load the seat's view, tree and orders afresh
    await loadAll();
    $("orders-panel").focus();
  } catch (error) {
    $("join-status").textContent = `Could not join ${seat}: ${errorText(error)}`;
  }
}

// ------------------------------------------------------------------ orders
function orderLoc(text) {
  // "A PAR - BUR" -> PAR; "F STP/SC B" -> STP/SC; other forms (WAIVE, LINK ...) have no unit.
  const words = text.trim().toUpperCase().split(/\s+/);
  return words.length >= 2 && /^[AF]$/.test(words[0]) ? words[1] : null;
}

function renderOrders() {
  const view = state.view;
  const panel = $("orders-panel");
  panel.hidden = !state.seat;
  if (!state.seat) return;
  const acting = view.acting.includes(state.seat);
  const tree = state.tree || {};
  // What this step asks, in the family's words when it gives them (its tree's prompt, or the
  // pending decision's prompt for the seat); otherwise neutral words.
  const pending = view.pending || {};
  const prompt = tree.prompt || (pending.prompts && pending.prompts[state.seat]) || "";
  const help = [];
  if (view.status !== "active") help.push(`The game is ${view.status}: no orders now.`);
  else if (!acting) {
    help.push(`${state.seat} has nothing to order in ${view.phase}.`);
    if (pending.turn && pending.turn !== state.seat) help.push(`It is ${pending.turn}'s turn.`);
  } else help.push(prompt || `Orders for ${view.phase}.`);
  if (tree.due > 0) help.push(`Builds due: ${tree.due}.`);
  if (tree.due < 0) help.push(`Removals due: ${-tree.due}.`);
  $("orders-help").textContent = help.join(" ");
  $("picker-hint").textContent = tree.hint || "Click a place on the map (or a button below) to see what you may order there.";
  $("order-input").placeholder = tree.example || ""; // an order of this step as typed, if the family gives one
  const list = $("order-list");
  list.replaceChildren(...state.drafts.map((d, i) => el("li", { class: d.error ? "order bad" : "order" },
    el("span", { class: "order-text" }, d.text),
    el("span", { class: d.error ? "verdict bad" : d.ok ? "verdict ok" : "verdict" },
      d.error ? `✗ ${d.error}` : d.ok ? "✓ accepted" : "not saved"),
    el("button", { type: "button", class: "small", "aria-label": `Remove ${d.text}`, onclick: () => removeDraft(i) }, "×"))));
  if (!state.drafts.length) list.append(el("li", { class: "hint" }, tree.no_orders || "No orders yet."));
  const canOrder = acting && view.status === "active";
  $("type-form").hidden = !canOrder;
  $("picker").hidden = !canOrder;
  $("clear-button").hidden = !canOrder;
  const ready = view.seat && view.seat.ready;
  const readyButton = $("ready-button");
  readyButton.hidden = !canOrder;
  readyButton.setAttribute("aria-pressed", String(Boolean(ready)));
  readyButton.textContent = ready ? "Ready ✓ (click to unready)" : "Ready";
  const drawButton = $("draw-button");
  drawButton.hidden = !["active", "paused"].includes(view.status);
  const vote = view.seat && view.seat.draw_vote;
  drawButton.setAttribute("aria-pressed", String(Boolean(vote)));
  drawButton.textContent = vote ? "Draw vote ✓" : "Vote draw";
  renderPicker();
}

function removeDraft(index) {
  state.drafts.splice(index, 1);
  saveOrders();
}

async function saveOrders() {
  const status = $("orders-status");
  const texts = state.drafts.map((d) => d.text);
  try {
    const report = await api("PUT", `/api/games/${gameId}/orders`, {
      token: state.token, body: { phase: state.view.phase, orders: texts },
    });
    report.forEach((r, i) => Object.assign(state.drafts[i], { ok: r.ok, error: r.error }));
    status.textContent = `Saved: ${texts.length} order${texts.length === 1 ? "" : "s"}.`;
    state.view.seat.orders = texts;
    if (state.tree && state.tree.chained) {
      // What may be clicked next depends on what was saved (a wargame's moves): ask again.
      state.tree = await api("GET", `/api/games/${gameId}/options`, { token: state.token });
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 422 && error.details.length === texts.length) {
      error.details.forEach((r, i) => Object.assign(state.drafts[i], { ok: r.ok, error: r.error }));
      const bad = error.details.filter((r) => !r.ok).length;
      status.textContent = `Not saved: ${bad} order${bad === 1 ? "" : "s"} refused, so none was stored. Fix or remove the marked order${bad === 1 ? "" : "s"}.`;
    } else {
      state.drafts.forEach((d) => { d.ok = false; });
      status.textContent = `Not saved: ${errorText(error)}`;
      if (error instanceof ApiError && error.status === 409) loadAll();
    }
  }
  renderOrders();
  if (state.historyIndex === null) showMap();
}

function addOrders(texts, loc) {
  for (const text of texts) {
    const unit = loc || orderLoc(text);
    if (unit) state.drafts = state.drafts.filter((d) => d.loc !== unit);
    state.drafts.push({ text, loc: unit, ok: false, error: null });
  }
  return saveOrders();
}

function typed(event) {
  event.preventDefault();
  const input = $("order-input");
  const texts = input.value.split(/[;\n]/).map((t) => t.trim()).filter(Boolean);
  if (!texts.length) return;
  input.value = "";
  addOrders(texts);
}

// Click-to-order over the legal-order tree: unit, then destination, then the order.
function leaves(node, path = []) {
  if (typeof node === "string") return [{ path, text: node }];
  if (!node || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([key, child]) => leaves(child, [...path, key]));
}

function isPlace(key) {
  return state.mapPlaces.size ? state.mapPlaces.has(province(key)) : /^[A-Z][A-Z0-9/_-]{2,}$/.test(key);
}

function places(path) {
  return path.filter(isPlace).map(province);
}

function unitOrders(loc) {
  const orders = (state.tree && state.tree.orders) || {};
  return leaves(orders[loc]);
}

function targetsOf(loc) {
  const here = province(loc);
  const out = new Set();
  for (const leaf of unitOrders(loc)) for (const p of places(leaf.path)) if (p !== here) out.add(p);
  return [...out].sort();
}

function renderPicker() {
  const orders = (state.tree && state.tree.orders) || {};
  const units = Object.keys(orders);
  const unitButtons = units.map((loc) => el("button", {
    type: "button", class: "small", "aria-pressed": String(loc === state.selected), onclick: () => select(loc),
  }, unitLabel(loc)));
  if (state.tree && state.tree.waive) {
    unitButtons.push(el("button", { type: "button", class: "small", onclick: () => addOrders([state.tree.waive]) }, "Waive a build"));
  }
  $("unit-buttons").replaceChildren(...unitButtons);
  const box = $("choice-box");
  if (!state.selected) {
    box.replaceChildren();
    highlight();
    return;
  }
  const here = province(state.selected);
  const all = unitOrders(state.selected);
  const direct = all.filter((l) => places(l.path).every((p) => p === here));
  const targets = targetsOf(state.selected);
  const parts = [el("h4", {}, `${unitLabel(state.selected)}: pick an order or a destination`)];
  if (direct.length) {
    parts.push(el("div", { class: "button-list", role: "group", "aria-label": "Orders without a destination" },
      direct.map((l) => orderButton(l))));
  }
  if (targets.length) {
    parts.push(el("div", { class: "button-list targets", role: "group", "aria-label": "Destinations" },
      targets.map((p) => el("button", {
        type: "button", class: "small", "aria-pressed": String(p === state.target), onclick: () => chooseTarget(p),
      }, p))));
  }
  if (state.target) {
    const matching = all.filter((l) => places(l.path).includes(state.target));
    parts.push(el("h4", {}, `Orders involving ${state.target}`));
    parts.push(el("div", { class: "button-list orders", role: "group", "aria-label": `Orders involving ${state.target}` },
      matching.map((l) => orderButton(l))));
  }
  parts.push(el("button", { type: "button", class: "small link", onclick: () => select(null) }, "Cancel (Esc)"));
  box.replaceChildren(...parts);
  highlight();
}

function unitLabel(loc) {
  // A family may describe each key of its tree (a hex wargame: the stack's counters and values).
  const labels = (state.tree && state.tree.labels) || {};
  if (labels[loc]) return labels[loc];
  const units = (state.view.position && state.view.position.units && state.view.position.units[state.seat]) || [];
  const unit = units.find((u) => u.split(/\s+/)[1] === loc);
  return unit || loc;
}

function orderButton(leaf) {
  // A family may annotate an order (a hex wargame: an attack's odds), shown before it is committed.
  const note = state.tree && state.tree.notes && state.tree.notes[leaf.text];
  return el("button", {
    type: "button", class: "small order-choice", dataset: { order: leaf.text },
    onclick: () => {
      // A family whose places hold several pieces, each with its own orders, keeps every order;
      // otherwise a new order for a unit replaces its old one.
      const loc = state.tree && state.tree.chained ? null : state.selected;
      select(null);
      addOrders([leaf.text], loc);
    },
  }, leaf.text, ...(note ? [el("span", { class: "note" }, ` (${note})`)] : []));
}

function select(loc) {
  state.selected = loc;
  state.target = null;
  renderPicker();
  if (loc) {
    const first = $("choice-box").querySelector("button");
    if (first && document.activeElement && document.activeElement.closest("#unit-buttons")) first.focus();
  }
}

function chooseTarget(place) {
  state.target = place;
  renderPicker();
  const first = $("choice-box").querySelector(".orders button");
  if (first && document.activeElement && document.activeElement.closest("#choice-box")) first.focus();
}

function mapClicked(event) {
  const node = event.target.closest("[data-loc]");
  if (!node || state.historyIndex !== null || !state.tree) return;
  const loc = node.dataset.loc;
  const orders = state.tree.orders || {};
  const own = Object.keys(orders).find((l) => l === loc) || Object.keys(orders).find((l) => province(l) === province(loc));
  if (state.selected && targetsOf(state.selected).includes(province(loc))) {
    chooseTarget(province(loc));
  } else if (own) {
    select(own);
  } else if (state.selected) {
    $("picker-hint").textContent = `${province(loc)} is not a destination of ${unitLabel(state.selected)}.`;
  }
}

function highlight() {
  const map = $("map");
  const targets = new Set(state.selected ? targetsOf(state.selected) : []);
  const mine = new Set(Object.keys((state.tree && state.tree.orders) || {}).map(province));
  for (const node of map.querySelectorAll("[data-loc]")) {
    const p = province(node.dataset.loc);
    node.classList.toggle("selected", Boolean(state.selected) && p === province(state.selected));
    node.classList.toggle("target", targets.has(p));
    node.classList.toggle("chosen", p === state.target);
    node.classList.toggle("orderable", state.historyIndex === null && mine.has(p));
  }
}

async function setReady() {
  const ready = !(state.view.seat && state.view.seat.ready);
  try {
    const answer = await api("PUT", `/api/games/${gameId}/ready`, { token: state.token, body: { phase: state.view.phase, value: ready } });
    $("orders-status").textContent = answer.processed ? "Everyone was ready: the phase was processed." : ready ? "Ready." : "Not ready.";
  } catch (error) {
    $("orders-status").textContent = errorText(error);
  }
  await loadAll();
}

async function voteDraw() {
  const vote = !(state.view.seat && state.view.seat.draw_vote);
  try {
    await api("PUT", `/api/games/${gameId}/draw`, { token: state.token, body: { phase: state.view.phase, value: vote } });
  } catch (error) {
    $("orders-status").textContent = errorText(error);
  }
  await loadAll();
}

// ------------------------------------------------------------------ press
function renderPress() {
  const view = state.view;
  const press = view.press || "none";
  const panel = $("press-panel");
  panel.hidden = press === "none" || !state.seat;
  if (panel.hidden) return;
  $("messages").replaceChildren(...(view.messages || []).map((m) => el("li", { class: m.from === state.seat ? "mine" : null },
    el("span", { class: "meta" }, `${m.phase} · ${m.from} → ${m.to ? m.to.join(", ") : "everyone"}`),
    el("p", {}, m.body))));
  if (!(view.messages || []).length) $("messages").append(el("li", { class: "hint" }, "No messages yet."));
  const to = $("press-to");
  const chosen = to.value;
  const others = view.seats.map((s) => s.seat).filter((s) => s !== state.seat);
  to.replaceChildren(el("option", { value: "" }, "everyone"),
    ...(press === "full" ? others.map((s) => el("option", { value: s }, s)) : []));
  to.value = [...to.options].some((o) => o.value === chosen) ? chosen : "";
}

async function sendPress(event) {
  event.preventDefault();
  const body = $("press-body").value.trim();
  if (!body) return;
  const to = $("press-to").value;
  try {
    await api("POST", `/api/games/${gameId}/messages`, { token: state.token, body: { to: to ? [to] : null, body } });
    $("press-body").value = "";
    $("press-status").textContent = "Sent.";
  } catch (error) {
    $("press-status").textContent = `Not sent: ${errorText(error)}`;
  }
  await loadAll();
}

// ------------------------------------------------------------------ game master
function renderGm() {
  const token = gmToken(gameId);
  const status = state.view.status;
  $("gm-panel").hidden = !token || status === "finished";
  $("gm-start").hidden = status !== "forming";
  $("gm-pause").hidden = status !== "active";
  $("gm-resume").hidden = status !== "paused";
  $("gm-extend").hidden = status !== "active" || !state.view.deadline; // no deadline: nothing to extend (409)
}

async function gm(action, body) {
  try {
    await api("POST", `/api/games/${gameId}/${action}`, { token: gmToken(gameId), body });
    $("gm-status").textContent = `Done: ${action}.`;
  } catch (error) {
    $("gm-status").textContent = errorText(error);
  }
  await loadAll();
}

// ------------------------------------------------------------------ history and map
function renderHistoryBar() {
  const n = state.history.length;
  const i = state.historyIndex;
  $("hist-first").disabled = n === 0 || i === 0;
  $("hist-prev").disabled = n === 0 || i === 0;
  $("hist-next").disabled = i === null;
  $("hist-now").disabled = i === null;
  $("hist-label").textContent = i === null
    ? `Current position: ${state.view.phase}` + (n ? ` (${n} phase${n === 1 ? "" : "s"} played)` : "")
    : `Phase ${i + 1} of ${n}: ${state.history[i].phase}, orders and results`;
  document.body.classList.toggle("viewing-history", i !== null);
}

function describeOutcome(r) {
  // A unit its player gave no order: the rules' default, not something the player chose.
  if (r.default || r.reason === "not ordered") return / H$/.test(r.order) ? "held (no order)" : "no order: the default";
  if (r.succeeded) return "succeeds";
  let text = r.reason || "fails";
  if (r.by && r.by.length) text += ` (${r.by.join(", ")})`;
  return text;
}

function renderResults() {
  const i = state.historyIndex;
  const record = i === null ? state.history[state.history.length - 1] : state.history[i];
  const panel = $("results-panel");
  panel.hidden = !record;
  if (!record) return;
  $("results-h").textContent = `Results of ${record.phase}`;
  $("results").replaceChildren(...record.results.map((r) => el("li", { class: r.succeeded ? "ok" : "bad" },
    el("span", { class: "swatch", dataset: { power: r.power } }),
    `${r.power}: ${r.order} — ${describeOutcome(r)}`,
    r.dislodged_by ? ` · dislodged from ${r.dislodged_by}` : "",
    r.message ? ` · ${r.message}` : "",
    Array.isArray(r.dice) && r.dice.length ? el("ul", { class: "dice" }, ...r.dice.map((d) => el("li", {}, diceText(d)))) : "")));
  if (!record.results.length) $("results").append(el("li", { class: "hint" }, "No orders."));
}

// A family records each roll as an object: what it was for (its string fields) and the dice
// (a number or a list of numbers). The page lists them all, so every die is visible to everyone.
function diceText(roll) {
  if (typeof roll !== "object" || roll === null) return String(roll);
  const what = [];
  const dice = [];
  for (const [key, value] of Object.entries(roll)) {
    if (typeof value === "string") what.push(value);
    else if (key === "die" || key === "dice") dice.push(...[value].flat());
  }
  return `${what.join(", ")}: ${dice.join(" ")}`;
}

async function stepHistory(to) {
  const n = state.history.length;
  if (to !== null) to = Math.max(0, Math.min(n - 1, to));
  if (to !== null && to >= n) to = null;
  state.historyIndex = to;
  state.selected = state.target = null;
  renderHistoryBar();
  renderResults();
  renderPicker();
  await showMap();
}

function historyKey(event) {
  const i = state.historyIndex;
  const n = state.history.length;
  if (event.key === "ArrowLeft") stepHistory(i === null ? n - 1 : i - 1);
  else if (event.key === "ArrowRight") stepHistory(i === null || i + 1 >= n ? null : i + 1);
  else if (event.key === "Home") stepHistory(0);
  else if (event.key === "End") stepHistory(null);
  else return;
  event.preventDefault();
}

let mapRequest = 0;
async function showMap() {
  const request = ++mapRequest;
  const i = state.historyIndex;
  const url = `/api/games/${gameId}/map.svg` + (i === null ? "" : `?phase=${i}`);
  const headers = i === null && state.token ? { Authorization: `Bearer ${state.token}` } : {};
  const map = $("map");
  try {
    const response = await fetch(url, { headers });
    if (request !== mapRequest) return;
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      map.replaceChildren(el("p", { class: "hint" }, `No map: ${body.error || response.status}`));
      state.mapPlaces = new Set();
      return;
    }
    map.innerHTML = await response.text();
  } catch (error) {
    map.replaceChildren(el("p", { class: "hint" }, `No map: ${error.message}`));
    return;
  }
  const svg = map.querySelector("svg");
  if (svg) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", i === null ? `Map of ${state.view.phase}` : `Map of ${state.history[i].phase} with its orders and results`);
    svg.dataset.phase = i === null ? state.view.phase : state.history[i].phase;
    const box = svg.viewBox.baseVal;
    $("main").classList.toggle("wide-map", Boolean(box && box.height && box.width / box.height > 1.5));
  }
  state.mapPlaces = new Set([...map.querySelectorAll("[data-loc]")].map((n) => province(n.dataset.loc)));
  for (const node of map.querySelectorAll("[data-power][data-colour]")) state.colours[node.dataset.power] = node.dataset.colour;
  for (const node of map.querySelectorAll("[data-owner][data-colour]")) state.colours[node.dataset.owner] = node.dataset.colour;
  paintSwatches();
  map.dataset.phase = i === null ? "current" : String(i);
  highlight();
  renderPicker();
}

// ------------------------------------------------------------------ live updates
const STREAM_RETRY_MS = 5000;  // the server's Retry-After for a refused event stream
function listen() {
  const source = new EventSource(`/api/games/${gameId}/events`);
  source.addEventListener("update", (event) => {
    const data = JSON.parse(event.data);
    if (data.version !== state.version) loadAll();
  });
  source.addEventListener("error", () => {
    // A dropped stream reconnects by itself; a refused one (a busy server: 429 or 503) is closed
    // for good, so the page reloads the game and asks again a little later.
    if (source.readyState !== EventSource.CLOSED) return;
    setTimeout(() => { loadAll(); listen(); }, STREAM_RETRY_MS);
  });
}

function main() {
  chooseSeat();
  $("type-form").addEventListener("submit", typed);
  $("ready-button").addEventListener("click", setReady);
  $("draw-button").addEventListener("click", voteDraw);
  $("clear-button").addEventListener("click", () => { state.drafts = []; saveOrders(); });
  $("press-form").addEventListener("submit", sendPress);
  $("press-body").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) sendPress(event);
  });
  $("gm-start").addEventListener("click", () => gm("start"));
  $("gm-pause").addEventListener("click", () => gm("pause"));
  $("gm-resume").addEventListener("click", () => gm("resume"));
  $("gm-extend").addEventListener("click", () => gm("extend", { seconds: 3600 }));
  $("hist-first").addEventListener("click", () => stepHistory(0));
  $("hist-prev").addEventListener("click", () => stepHistory(state.historyIndex === null ? state.history.length - 1 : state.historyIndex - 1));
  $("hist-next").addEventListener("click", () => {
    const i = state.historyIndex;
    stepHistory(i === null || i + 1 >= state.history.length ? null : i + 1);
  });
  $("hist-now").addEventListener("click", () => stepHistory(null));
  $("history-bar").addEventListener("keydown", historyKey);
  $("map").addEventListener("keydown", historyKey);
  $("map").addEventListener("click", mapClicked);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.selected) select(null);
  });
  setInterval(tick, 1000);
  loadAll().then(listen);
}

main();
