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
  link: { kind: null, from: null, to: null }, // a link order being picked: kind, then two ends
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
    state.history = await loadHistory(first ? [] : state.history, view.phase_index);
  }
  if (phaseChanged) {
    quantities.clear();
    state.selected = state.target = null;
    state.link = { kind: null, from: null, to: null };
    announce(`Phase processed: now ${phaseTitle(view)}.`);
  }
  const acting = state.seat && view.acting.includes(state.seat);
  state.tree = acting ? await api("GET", `/api/games/${gameId}/options`, { token: state.token }) : null;
  if (view.seat && (first || state.draftsPhase !== view.phase)) {
    state.drafts = view.seat.orders.map((text) => ({ text, loc: orderLoc(text), ok: true, error: null }));
    state.draftsPhase = view.phase;
  }
  // A step with one place to decide at (the number to move in after a capture, a battle's
  // casualties, a retreat) opens its choices at once: there is nothing else to click first.
  const keys = Object.keys((state.tree && state.tree.orders) || {});
  if (keys.length === 1 && !state.selected && !state.link.kind && state.autoOpened !== view.phase) {
    state.autoOpened = view.phase;
    state.selected = keys[0];
  }
  render();
  if (state.historyIndex === null || phaseChanged) await showMap();
  if (state.selected) showChooser();
}

// The played phases up to the view's (its phase_index: how many there are), those not kept yet
// asked a page at a time: a played phase never changes, so the ones kept are kept.
const HISTORY_PAGE = 200; // the most GET /history gives at once
async function loadHistory(kept, upTo) {
  const history = kept.slice(0, upTo);
  while (history.length < upTo) {
    const path = `/api/games/${gameId}/history?offset=${history.length}&limit=${HISTORY_PAGE}`;
    const page = await api("GET", path);
    if (!page.length) break;
    history.push(...page);
  }
  return history.slice(0, upTo);
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
  document.title = `${view.title} · ${phaseTitle(view)} · interboard`;
  $("game-title").textContent = view.title;
  // The phase as players say it; its code (what orders and the API name it by) in data-phase.
  $("phase").textContent = (view.position && view.position.phase_title) || view.phase;
  $("phase").dataset.phase = view.phase;
  $("phase").title = view.phase;
  $("status").textContent = view.status + (view.result ? ` (${describeResult(view.result)})` : "");
  $("seat-name").textContent = state.seat ? seatName(state.seat) : "spectator";
  $("next-step").textContent = nextStep();
  tick();
  renderPowers();
  renderCharts();
  renderJoin();
  renderOrders();
  renderPress();
  renderGm();
  renderHistoryBar();
  renderResults();
  renderSince();
  paintSwatches();
}

// The powers' colours are the map's: read from it, shown beside seat names.
function paintSwatches() {
  for (const node of document.querySelectorAll(".swatch[data-power]")) {
    const colour = state.colours[node.dataset.power];
    if (colour) node.style.background = colour;
  }
}

// What this page's player should do now, in one line at the top.
function nextStep() {
  const view = state.view;
  if (view.status === "finished") return `The game is over${view.result ? `: ${describeResult(view.result)}` : "."}`;
  if (view.status === "forming") return "Waiting for players: the game starts when every seat is taken.";
  if (view.status !== "active") return `The game is ${view.status}.`;
  if (!state.seat) return view.seats.some((s) => s.kind === "open") ? "Watching: take an open seat to play." : "Watching.";
  if (!view.acting.includes(state.seat)) {
    const turn = view.pending && view.pending.turn;
    return turn ? `Waiting for ${seatName(turn)} to play.` : "Nothing to order now: waiting for the others.";
  }
  if (view.seat && view.seat.ready) return "You are ready: waiting for the others.";
  const tree = state.tree || {};
  const prompt = tree.prompt || (view.pending && view.pending.prompts && view.pending.prompts[state.seat]) || "";
  return `Your move: ${prompt || `orders for ${phaseTitle(view)}`}`;
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
  const count = (table, seat) => (table && Array.isArray(table[seat]) ? table[seat].length : 0);
  // Diplomacy's units: a list per seat. Other families' units are another shape; they give counts.
  const listed = (table) => table && typeof table === "object" && Object.values(table).every(Array.isArray);
  const counts = pos.counts && typeof pos.counts === "object" ? pos.counts : {};
  const units = listed(pos.units) && !("units" in counts) ? pos.units : null;
  const columns = Object.keys(counts);
  const teams = Array.isArray(pos.teams) ? pos.teams : [];
  const turn = view.pending && view.status === "active" ? view.pending.turn : null;
  const teamOf = (seat) => teams.findIndex((team) => team.includes(seat));
  const teamText = (k) => {
    const totals = columns.map((c) => `${teams[k].reduce((n, s) => n + (Number(counts[c][s]) || 0), 0)} ${c}`);
    return `Team ${k + 1}` + (totals.length ? `: ${totals.join(", ")}` : "");
  };
  const rows = view.seats.map((s) => el("tr", { class: [s.seat === state.seat ? "mine" : "", s.seat === turn ? "turn" : ""].join(" ").trim() || null },
    el("th", { scope: "row" }, el("span", { class: "swatch", dataset: { power: s.seat } }), seatName(s.seat),
      s.seat === turn ? el("span", { class: "to-play" }, " ▶ to play") : null),
    el("td", {}, s.kind === "player" ? s.player : s.kind),
    teams.length ? el("td", { class: "team" }, teamOf(s.seat) >= 0 ? teamText(teamOf(s.seat)) : "") : null,
    pos.centres ? el("td", {}, count(pos.centres, s.seat)) : null,
    units ? el("td", {}, count(units, s.seat)) : null,
    ...columns.map((c) => el("td", { dataset: { count: c } }, counts[c][s.seat] ?? "")),
    el("td", {}, view.acting.includes(s.seat) ? (view.submitted.includes(s.seat) ? "✓" : "…") : "—"),
    el("td", {}, s.ready ? "✓" : "")));
  $("powers").replaceChildren(el("table", { class: "powers" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "seat"), el("th", { scope: "col" }, "player"),
      teams.length ? el("th", { scope: "col" }, "team") : null,
      pos.centres ? el("th", { scope: "col" }, "centres") : null,
      units ? el("th", { scope: "col" }, "units") : null,
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
    el("button", { type: "button", onclick: () => join(s.seat) }, `Join as ${seatName(s.seat)}`)));
  $("my-seats").replaceChildren(mine.length > 1
    ? el("p", {}, "Your seats here: ", mine.map((seat) => el("a", {
      href: `/games/${gameId}?seat=${encodeURIComponent(seat)}`, "aria-current": seat === state.seat ? "page" : null,
    }, seatName(seat), " ")))
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
    help.push(`${seatName(state.seat)} has nothing to order in ${phaseTitle(view)}.`);
    if (pending.turn && pending.turn !== state.seat) help.push(`It is ${pending.turn}'s turn.`);
  } else help.push(prompt || `Orders for ${phaseTitle(view)}.`);
  if (tree.due > 0) help.push(`Builds due: ${tree.due}.`);
  if (tree.due < 0) help.push(`Removals due: ${-tree.due}.`);
  $("orders-help").textContent = help.join(" ");
  // A family may point at parts of its rules page (the hex wargame: its combat results table).
  const links = Array.isArray(tree.help) ? tree.help.filter((h) => Array.isArray(h) && h.length === 2) : [];
  $("help-links").hidden = !links.length;
  $("help-links").replaceChildren(...(links.length ? ["See ", ...links.flatMap(([text, href], k) =>
    [k ? ", " : "", el("a", { href, target: "_blank", rel: "noopener" }, text)])] : []));
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
    type: "button", class: "small", "aria-pressed": String(loc === state.selected), dataset: { loc },
    onclick: () => select(loc),
  }, unitLabel(loc)));
  if (state.tree && state.tree.waive) {
    unitButtons.push(el("button", { type: "button", class: "small", onclick: () => addOrders([state.tree.waive]) }, "Waive a build"));
  }
  $("unit-buttons").replaceChildren(...unitButtons);
  renderLinkPicker();
  const box = $("choice-box");
  if (!state.selected) {
    box.replaceChildren(...(state.inspecting && !state.link.kind ? inspectorParts() : []));
    showChooser();
    highlight();
    return;
  }
  if (state.confirming) {
    box.replaceChildren(...confirmParts(state.confirming));
    showChooser();
    return;
  }
  const here = province(state.selected);
  const all = unitOrders(state.selected);
  const direct = all.filter((l) => places(l.path).every((p) => p === here));
  const targets = targetsOf(state.selected);
  const parts = [el("h4", { id: "chooser-h" }, `${unitLabel(state.selected)}: pick an order or a destination`)];
  if (direct.length) {
    parts.push(el("div", { class: "button-list", role: "group", "aria-label": "Orders without a destination" },
      choiceControls(direct)));
  }
  if (targets.length) {
    parts.push(el("div", { class: "button-list targets", role: "group", "aria-label": "Destinations" },
      targets.map((p) => el("button", {
        type: "button", class: "small", "aria-pressed": String(p === state.target), dataset: { loc: p },
        onclick: () => chooseTarget(p),
      }, placeName(p)))));
  }
  if (state.target) {
    const matching = all.filter((l) => places(l.path).includes(state.target));
    parts.push(el("h4", {}, `Orders involving ${placeName(state.target)}`));
    parts.push(el("div", { class: "button-list orders", role: "group", "aria-label": `Orders involving ${state.target}` },
      choiceControls(matching)));
  }
  if (state.note) parts.push(el("p", { class: "hint chooser-note" }, state.note));
  parts.push(el("button", { type: "button", class: "small link", onclick: () => select(null) }, "Cancel (Esc)"));
  box.replaceChildren(...parts);
  showChooser();
  highlight();
}

// A place's name as the map gives it (its title's first line), with the code the orders use when
// they differ: "Northern Italy", "Liège (W4907)".
function placeName(place) {
  const names = (state.tree && state.tree.place_names) || {};
  if (names[place]) return names[place];
  const node = $("map").querySelector(`[data-loc="${CSS.escape(place)}"] > title`);
  const name = node ? node.textContent.split("\n")[0].split(":")[0].trim() : "";
  if (!name || name === place) return place;
  if (name.includes(place)) return name; // the title names the code already: "Liège (W4907), forest"
  return name.toUpperCase().replace(/[^A-Z0-9]+/g, "_") === place ? name : `${name} (${place})`;
}

function unitLabel(loc) {
  // A family may describe each key of its tree (a hex wargame: the stack's counters and values).
  const labels = (state.tree && state.tree.labels) || {};
  if (labels[loc]) return labels[loc];
  const units = (state.view.position && state.view.position.units && state.view.position.units[state.seat]) || [];
  const unit = Array.isArray(units) ? units.find((u) => u.split(/\s+/)[1] === loc) : null;
  return unit || placeName(loc);
}

// An order in players' words when the family gives them (tree.words), else as it is typed.
function orderWords(text) {
  const words = state.tree && state.tree.words && state.tree.words[text];
  return words || text;
}

// The buttons for some of a place's orders. A run of numbers (units to buy or move, armies to
// deploy) is one control: a stepper (and a slider for a long run) with the button that gives the
// order for the number chosen, its price or effect beside it.
const MAX_NUMBER_BUTTONS = 3;
function choiceControls(leaves) {
  const groups = new Map();
  for (const leaf of leaves) {
    const key = leaf.path.slice(0, -1).join("\u0000");
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(leaf);
  }
  const out = [];
  for (const group of groups.values()) {
    const numbers = group.every((l) => /^\d+$/.test(l.path[l.path.length - 1]));
    if (numbers && group.length > MAX_NUMBER_BUTTONS) out.push(quantityControl(group));
    else out.push(...group.map((l) => orderButton(l)));
  }
  return out;
}

// The number each stepper shows, kept while the page is drawn again (a live update redraws the
// choices: the number being chosen must not jump back). Forgotten when the phase changes.
const quantities = new Map();

function quantityControl(group) {
  const byCount = new Map(group.map((l) => [Number(l.path[l.path.length - 1]), l]));
  const counts = [...byCount.keys()].sort((a, b) => a - b);
  const kind = group[0].path[group[0].path.length - 2] || "number";
  const id = `quantity-${group[0].path.slice(0, -1).join("-").replace(/\W+/g, "-")}`;
  const lo = counts[0], hi = counts[counts.length - 1];
  const nearest = (n) => counts.reduce((best, c) => (Math.abs(c - n) < Math.abs(best - n) ? c : best), counts[0]);
  const number = el("input", { type: "number", id, min: lo, max: hi, value: lo, inputmode: "numeric", class: "quantity-number" });
  const slider = counts.length > 12 ? el("input", { type: "range", min: lo, max: hi, value: lo, "aria-label": `${kind}: how many` }) : null;
  const holder = el("span", { class: "quantity-order" });
  let shown = lo;
  const show = (n) => {
    shown = nearest(Math.max(lo, Math.min(hi, n)));
    quantities.set(id, shown);
    number.value = String(shown);
    if (slider) slider.value = String(shown);
    holder.replaceChildren(orderButton(byCount.get(shown), "primary"));
  };
  const step = (by) => el("button", {
    type: "button", class: "small step", "aria-label": `${by < 0 ? "Fewer" : "More"}: ${kind}`,
    onclick: () => show(shown + by),
  }, by < 0 ? "−" : "+");
  number.addEventListener("change", () => show(Number(number.value)));
  // Typing a number in range updates the order at once (a phone's keyboard may never blur).
  number.addEventListener("input", () => {
    const n = Number(number.value);
    if (!Number.isInteger(n) || n < lo || n > hi || !byCount.has(n)) return;
    shown = n;
    quantities.set(id, n);
    if (slider) slider.value = String(n);
    holder.replaceChildren(orderButton(byCount.get(n), "primary"));
  });
  if (slider) slider.addEventListener("input", () => show(Number(slider.value)));
  show(quantities.get(id) ?? lo);
  return el("div", { class: "quantity", role: "group", "aria-label": `${kind}: how many (${lo} to ${hi})` },
    el("label", { for: id }, `${kind}: how many (${lo}–${hi})`),
    el("div", { class: "row" }, step(-1), number, step(1), slider), holder);
}

function orderButton(leaf, extraClass = "") {
  // A family may annotate an order (a hex wargame: an attack's odds), shown before it is committed.
  const note = state.tree && state.tree.notes && state.tree.notes[leaf.text];
  const words = orderWords(leaf.text);
  return el("button", {
    type: "button", class: `small order-choice ${words !== leaf.text ? "in-words" : ""} ${extraClass}`.replace(/\s+/g, " ").trim(),
    dataset: { order: leaf.text },
    title: words !== leaf.text ? leaf.text : null,
    onclick: () => {
      const confirm = state.tree && state.tree.confirm && state.tree.confirm[leaf.text];
      if (confirm) {
        state.confirming = { leaf, message: confirm };
        renderPicker();
        const yes = $("choice-box").querySelector(".confirm-yes");
        if (yes) yes.focus();
        return;
      }
      return giveOrder(leaf);
    },
  }, words, ...(note ? [el("span", { class: "note" }, ` (${note})`)] : []));
}

async function giveOrder(leaf) {
  // A family whose places hold several pieces, each with its own orders, keeps every order;
  // otherwise a new order for a unit replaces its old one.
  const loc = state.tree && state.tree.chained ? null : state.selected;
  const atOnce = state.tree && (state.tree.play_at_once || []).includes(leaf.text);
  select(null);
  await addOrders([leaf.text], loc);
  // An action the family plays at once (an attack: nothing can follow its dice) is sent with
  // this one click, rather than waiting for Ready.
  if (atOnce && state.drafts.every((d) => d.ok) && !(state.view.seat && state.view.seat.ready)) await setReady();
}

// An action that cannot be taken back (a surrender) is asked about once more, in the family's words.
function confirmParts({ leaf, message }) {
  return [
    el("h4", { id: "chooser-h" }, "Are you sure?"),
    el("p", { class: "confirm-message" }, message),
    el("div", { class: "row" },
      el("button", { type: "button", class: "small primary confirm-yes", onclick: () => { state.confirming = null; giveOrder(leaf); } },
        `Yes: ${orderWords(leaf.text)}`),
      el("button", { type: "button", class: "small", onclick: () => { state.confirming = null; renderPicker(); } }, "No, go back")),
  ];
}

function select(loc) {
  state.inspecting = null;
  state.selected = loc;
  state.target = null;
  state.note = null;
  state.confirming = null;
  if (loc) state.link = { kind: null, from: null, to: null };
  renderPicker();
  if (loc) {
    revealChooser();
    const first = $("choice-box").querySelector("button");
    if (first && document.activeElement && document.activeElement.closest("#unit-buttons")) first.focus();
  } else if (document.activeElement && document.activeElement.closest("#chooser")) {
    $("map").focus({ preventScroll: true });
  }
}

function chooseTarget(place) {
  state.target = place;
  state.note = null;
  renderPicker();
  const first = $("choice-box").querySelector(".orders button");
  if (first && document.activeElement && document.activeElement.closest("#choice-box")) first.focus();
}

function mapClicked(event) {
  if (mapView.moved) {
    mapView.moved = false; // the end of a drag, not a click
    return;
  }
  if (state.link.kind && state.historyIndex === null && state.tree) {
    linkMapClicked(event);
    return;
  }
  const node = placeAt(event);
  if (!node) return;
  const loc = node.dataset.loc;
  const orders = (state.historyIndex === null && state.tree && state.tree.orders) || {};
  const own = Object.keys(orders).find((l) => l === loc) || Object.keys(orders).find((l) => province(l) === province(loc));
  if (state.selected && targetsOf(state.selected).includes(province(loc))) {
    chooseTarget(province(loc));
  } else if (own) {
    select(own);
  } else if (state.selected) {
    state.note = `${placeName(province(loc))} is not a destination of ${unitLabel(state.selected)}.`;
    renderPicker();
  } else {
    inspect(loc);
  }
}

// A place that cannot be ordered at (another power's stack, a place on a map of the history, any
// place for a spectator) shows what is there when clicked or tapped: the map's own description of
// it (its hover text: the units by type, a counter's values, steps and supply).
function inspect(loc) {
  const lines = [];
  for (const title of $("map").querySelectorAll(`[data-loc="${CSS.escape(loc)}"] > title`)) {
    for (const line of title.textContent.split("\n")) if (line.trim() && !lines.includes(line.trim())) lines.push(line.trim());
  }
  if (!lines.length) return;
  state.inspecting = { loc, lines };
  renderPicker();
  revealChooser();
}

function inspectorParts() {
  const { lines } = state.inspecting;
  return [
    el("h4", { id: "chooser-h" }, lines[0]),
    el("ul", { class: "inspector" }, ...lines.slice(1).map((line) => el("li", {}, line))),
    el("button", { type: "button", class: "small link", onclick: () => { state.inspecting = null; renderPicker(); } }, "Close (Esc)"),
  ];
}

function highlight() {
  const map = $("map");
  if (state.link.kind) {
    highlightLinks(map);
    hitAreas();
    return;
  }
  for (const node of map.querySelectorAll(".link[data-a]")) node.classList.remove("pickable", "chosen");
  focusLinks(map);
  const targets = new Set(state.selected ? targetsOf(state.selected) : []);
  const mine = new Set(Object.keys((state.tree && state.tree.orders) || {}).map(province));
  for (const node of map.querySelectorAll("[data-loc]")) {
    const p = province(node.dataset.loc);
    node.classList.toggle("selected", Boolean(state.selected) && p === province(state.selected));
    node.classList.toggle("target", targets.has(p));
    node.classList.toggle("chosen", p === state.target);
    node.classList.toggle("orderable", state.historyIndex === null && mine.has(p));
  }
  hitAreas();
}

// The place picked (a unit, or a place looked at) lights its links and dims the others, so that
// one link among a dozen can be followed from end to end.
function focusLinks(map) {
  const place = state.selected || (state.inspecting && state.inspecting.loc);
  const here = place ? province(place) : null;
  let lit = 0;
  for (const node of map.querySelectorAll(".link[data-a]")) {
    const on = Boolean(here) && (province(node.dataset.a) === here || province(node.dataset.b) === here);
    node.classList.toggle("lit", on);
    lit += on;
  }
  map.classList.toggle("links-focus", lit > 0);
}

// ------------------------------------------------------------------ the chooser
// The choices for the place picked open beside the map, at the top of the side column and kept in
// view there (on a desktop), or as a sheet at the bottom of a phone's screen: choosing an order
// never scrolls the map away, and never covers the places the order may go to.

const phoneLayout = () => window.matchMedia("(max-width: 900px)").matches;

function showChooser() {
  const box = $("chooser");
  const open = Boolean(state.selected) || Boolean(state.link.kind) || Boolean(state.inspecting);
  box.hidden = !open;
  document.body.classList.toggle("choosing", open);
}

// After the player picks a place or a kind of link: the side column may have been scrolled (the
// map beside it stays), so the choices are brought to view.
function revealChooser() {
  const box = $("chooser");
  if (!box.hidden && !phoneLayout()) box.scrollIntoView({ block: "nearest" });
}

// Map units per CSS pixel at the present view: the drawing keeps its shape inside the element, so
// the tighter of its width and its height sets the scale (a tall map is limited by its height).
function unitsPerPx(svg) {
  const rect = svg.getBoundingClientRect();
  if (!rect.width || !rect.height || !mapView.box) return 1;
  return Math.max(mapView.box.w / rect.width, mapView.box.h / rect.height);
}

// Tap targets: each place that may be clicked now gets a round hit area of 44 CSS px (less where
// two such places are closer than that, so that neither hides the other), over its drawing.
const TAP_PX = 44;
function hitAreas() {
  const svg = $("map").querySelector("svg");
  if (!svg) return;
  svg.querySelector("g.hits")?.remove();
  if (state.historyIndex !== null || !mapView.box) return;
  const wanted = [...svg.querySelectorAll(".orderable[data-loc], .target[data-loc]")];
  if (state.link.kind && state.link.kind !== "link") return; // a drawn link is clicked itself
  if (!svg.getBoundingClientRect().width) return;
  const perPx = unitsPerPx(svg);
  const centres = new Map();
  for (const node of wanted) {
    const loc = node.dataset.loc;
    if (centres.has(loc)) continue;
    const x = Number(node.dataset.x), y = Number(node.dataset.y);
    if (Number.isFinite(x) && Number.isFinite(y) && node.dataset.x) centres.set(loc, { x, y });
    else {
      const b = node.getBBox();
      centres.set(loc, { x: b.x + b.width / 2, y: b.y + b.height / 2 });
    }
  }
  const points = [...centres.entries()];
  const group = document.createElementNS(SVG, "g");
  group.setAttribute("class", "hits");
  for (const [loc, c] of points) {
    let r = (TAP_PX / 2 + 1) * perPx; // a pixel over: the scale is rounded in drawing
    for (const [other, d] of points) if (other !== loc) r = Math.min(r, Math.hypot(d.x - c.x, d.y - c.y) / 2);
    const circle = document.createElementNS(SVG, "circle");
    circle.setAttribute("class", "hit");
    circle.setAttribute("cx", String(c.x));
    circle.setAttribute("cy", String(c.y));
    circle.setAttribute("r", String(r));
    circle.dataset.loc = loc;
    group.append(circle);
  }
  svg.append(group);
}

// ------------------------------------------------------------------ link orders
// A family whose players make and break links gives tree.links: the allowance, and by kind (link,
// destroy, reinforce) first end -> second end -> order text, each pair once. The player picks a
// kind, then one end on the map, then the other among the legal ones (or a drawn link, to destroy
// or reinforce it); the ends are provinces, and where a coast matters the order names it.
const LINK_KINDS = { link: "Make a link", destroy: "Destroy a link", reinforce: "Reinforce a link" };

function linkPairs(kind) {
  const table = (state.tree && state.tree.links && state.tree.links[kind]) || {};
  return Object.entries(table).flatMap(([a, ends]) => Object.entries(ends).map(([b, text]) => ({ a, b, text })));
}

function linkEnds(kind) {
  return new Set(linkPairs(kind).flatMap((p) => [province(p.a), province(p.b)]));
}

function linkPartners(kind, from) {
  const out = new Set();
  for (const p of linkPairs(kind)) {
    if (province(p.a) === from) out.add(province(p.b));
    if (province(p.b) === from) out.add(province(p.a));
  }
  return out;
}

function linksBetween(kind, x, y) {
  return linkPairs(kind).filter((p) => {
    const a = province(p.a), b = province(p.b);
    return (a === x && b === y) || (a === y && b === x);
  });
}

function linkOrdersGiven() {
  return state.drafts.filter((d) => /^(LINK|DESTROY|REINFORCE)\b/i.test(d.text.trim()));
}

function chooseLinkKind(kind) {
  state.link = { kind, from: null, to: null };
  state.note = null;
  if (kind) state.selected = state.target = null;
  renderPicker();
  if (kind) revealChooser();
}

// A click on a place: the first end (again, once both are chosen), the second end, or (the
// first end clicked again) back to choosing the first.
function chooseLinkEnd(place) {
  const link = state.link;
  if (!link.from || (link.to && place !== link.to)) {
    if (!linkEnds(link.kind).has(place)) {
      state.note = `${placeName(place)} cannot be an end of a link order now.`;
      renderPicker();
      return;
    }
    link.from = place;
    link.to = null;
  } else if (place === link.from) {
    link.from = link.to = null;
  } else if (linkPartners(link.kind, link.from).has(place)) {
    link.to = place;
  } else {
    state.note = `${placeName(place)} cannot be linked to ${placeName(link.from)} by this order.`;
    renderPicker();
    return;
  }
  renderPicker();
}

function linkMapClicked(event) {
  const kind = state.link.kind;
  const drawn = event.target.closest(".link[data-a]");
  if (drawn && kind !== "link") {
    const found = linksBetween(kind, province(drawn.dataset.a), province(drawn.dataset.b));
    if (found.length) {
      state.link = { kind, from: province(drawn.dataset.a), to: province(drawn.dataset.b) };
      renderPicker();
      return;
    }
  }
  const node = placeAt(event);
  if (node) chooseLinkEnd(province(node.dataset.loc));
}

// The place under a click, even where a drawn order (a build, an arrow) lies over it.
function placeAt(event) {
  const direct = event.target.closest("[data-loc]");
  if (direct) return direct;
  for (const node of document.elementsFromPoint(event.clientX, event.clientY)) {
    const place = node.closest("#map [data-loc]");
    if (place) return place;
  }
  return null;
}

function renderLinkPicker() {
  const box = $("link-box");
  const step = $("link-step");
  const links = state.tree && state.tree.links;
  const kinds = Object.keys(LINK_KINDS).filter((k) => linkPairs(k).length);
  box.hidden = !links || state.historyIndex !== null;
  if (box.hidden) {
    step.replaceChildren();
    return;
  }
  const given = linkOrdersGiven().length;
  const allowance = links.per_kind
    ? `You may give ${links.allowance} order of each kind.`
    : `You may give ${links.allowance} link order${links.allowance === 1 ? "" : "s"}; ${given} given.`;
  box.replaceChildren(el("h4", {}, "Links"), el("p", { class: "hint" }, kinds.length ? allowance : "No link order is possible now."),
    el("div", { class: "button-list", role: "group", "aria-label": "Link orders" },
      kinds.map((k) => el("button", {
        type: "button", class: "small", "aria-pressed": String(state.link.kind === k),
        onclick: () => chooseLinkKind(state.link.kind === k ? null : k),
      }, linkKindName(k)))));
  // The steps of the order being made, in the chooser beside the map.
  const link = state.link;
  if (!link.kind) {
    step.replaceChildren();
    return;
  }
  const parts = [el("h4", { id: "chooser-h" }, linkKindName(link.kind))];
  if (!link.from) {
    const ends = [...linkEnds(link.kind)].sort();
    parts.push(el("p", {}, link.kind === "link"
      ? `Click the first end on the map (${ends.length} places are marked), or pick it here:`
      : `Click a drawn link on the map, or one of its ends, or pick an end here:`));
    parts.push(endPicker("link-first", "First end", ends));
  } else if (!link.to) {
    const partners = [...linkPartners(link.kind, link.from)].sort();
    parts.push(el("p", {}, `${placeName(link.from)}: now click the other end (${partners.length} marked), or pick it here:`));
    parts.push(endPicker("link-second", "Second end", partners));
  } else {
    const found = linksBetween(link.kind, link.from, link.to);
    parts.push(el("p", {}, `Orders between ${placeName(link.from)} and ${placeName(link.to)}:`));
    parts.push(el("div", { class: "button-list orders", role: "group", "aria-label": `Link orders between ${link.from} and ${link.to}` },
      found.map((p) => el("button", {
        type: "button", class: "small order-choice", dataset: { order: p.text },
        onclick: () => { chooseLinkKind(null); addOrders([p.text]); },
      }, p.text))));
  }
  if (state.note) parts.push(el("p", { class: "hint chooser-note" }, state.note));
  parts.push(el("button", { type: "button", class: "small link", onclick: () => chooseLinkKind(null) }, "Cancel (Esc)"));
  step.replaceChildren(...parts);
}

function linkKindName(kind) {
  const links = (state.tree && state.tree.links) || {};
  return (links.labels && links.labels[kind]) || LINK_KINDS[kind];
}

// A link order begun and not finished: the orders that would finish it, and what to call it.
function halfMadeOrder() {
  const link = state.link;
  if (link.kind && link.from) {
    const what = link.to ? `${linkKindName(link.kind)}: ${placeName(link.from)} – ${placeName(link.to)}` : `${linkKindName(link.kind)} from ${placeName(link.from)}`;
    return { what, texts: link.to ? linksBetween(link.kind, link.from, link.to).map((p) => p.text) : [] };
  }
  if (state.selected && state.target) {
    const texts = unitOrders(state.selected).filter((l) => places(l.path).includes(state.target)).map((l) => l.text);
    return { what: `${unitLabel(state.selected)} → ${placeName(state.target)}`, texts };
  }
  return null;
}

// The ends as a list too, for the keyboard and for places hard to hit on a crowded map.
function endPicker(id, label, places) {
  const select = el("select", { id, "aria-label": label },
    el("option", { value: "" }, `${label}…`), ...places.map((p) => el("option", { value: p }, placeName(p))));
  select.addEventListener("change", () => { if (select.value) chooseLinkEnd(select.value); });
  return el("div", { class: "field" }, select);
}

function highlightLinks(map) {
  const link = state.link;
  const marked = link.to ? new Set() : link.from ? linkPartners(link.kind, link.from) : linkEnds(link.kind);
  for (const node of map.querySelectorAll("[data-loc]")) {
    const p = province(node.dataset.loc);
    node.classList.toggle("selected", p === link.from);
    node.classList.toggle("chosen", p === link.to);
    node.classList.toggle("target", marked.has(p));
    node.classList.remove("orderable");
  }
  for (const node of map.querySelectorAll(".link[data-a]")) {
    const ends = [province(node.dataset.a), province(node.dataset.b)];
    const pickable = link.kind !== "link" && linksBetween(link.kind, ends[0], ends[1]).length > 0;
    node.classList.toggle("pickable", pickable);
    node.classList.toggle("chosen", Boolean(link.to) && ends.includes(link.from) && ends.includes(link.to));
  }
}

async function setReady() {
  const ready = !(state.view.seat && state.view.seat.ready);
  const begun = ready ? halfMadeOrder() : null;
  if (begun && begun.texts.length === 1) {
    // Only one order fits what was picked: it is what the player meant.
    const text = begun.texts[0];
    const loc = state.tree && state.tree.chained ? null : state.selected;
    state.link = { kind: null, from: null, to: null };
    select(null);
    await addOrders([text], loc);
    if (!state.drafts.every((d) => d.ok)) return; // refused: the list says why; not ready
    $("orders-status").textContent = `Added the order you began: ${text}.`;
  } else if (begun) {
    state.note = `You began an order (${begun.what}) and did not finish it: pick one of its choices, or Cancel, then press Ready again.`;
    $("orders-status").textContent = `Not ready: ${state.note}`;
    renderPicker();
    revealChooser();
    return;
  }
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
    el("span", { class: "meta" }, `${m.phase} · ${seatName(m.from)} → ${m.to ? m.to.map(seatName).join(", ") : "everyone"}`),
    el("p", {}, m.body))));
  if (!(view.messages || []).length) $("messages").append(el("li", { class: "hint" }, "No messages yet."));
  const to = $("press-to");
  const chosen = to.value;
  const others = view.seats.map((s) => s.seat).filter((s) => s !== state.seat);
  to.replaceChildren(el("option", { value: "" }, "everyone"),
    ...(press === "full" ? others.map((s) => el("option", { value: s }, seatName(s))) : []));
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
    ? `Current position: ${phaseTitle(state.view)}` + (n ? ` (${n} phase${n === 1 ? "" : "s"} played)` : "")
    : `Phase ${i + 1} of ${n}: ${phaseTitle(state.history[i])}, orders and results`;
  document.body.classList.toggle("viewing-history", i !== null);
}

// A seat as players call it, when the family names its seats (Axis & Allies: "the Soviet Union").
function seatName(seat) {
  const names = (state.view && state.view.position && state.view.position.seat_names) || {};
  return names[seat] || seat;
}

// A phase (the view, or a phase of the history with the position it was played from) by its title.
function phaseTitle(record) {
  return (record.position && record.position.phase_title) || record.phase;
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
  $("results-h").textContent = `Results of ${phaseTitle(record)}`;
  $("results").replaceChildren(...record.results.map((r) => el("li", { class: r.succeeded ? "ok" : "bad" },
    el("span", { class: "swatch", dataset: { power: r.power } }),
    // A result of no seat (the dice of a battle) says what it is rather than an empty "power: order".
    r.power ? `${seatName(r.power)}: ${r.order} — ${describeOutcome(r)}` : r.message || r.order,
    r.dislodged_by ? ` · dislodged from ${r.dislodged_by}` : "",
    r.message && r.power ? ` · ${r.message}` : "",
    Array.isArray(r.dice) && r.dice.length ? el("ul", { class: "dice" }, ...r.dice.map((d) => el("li", {}, diceText(d)))) : "")));
  if (!record.results.length) $("results").append(el("li", { class: "hint" }, "No orders."));
}

// ------------------------------------------------------------------ since the last turn
// What the other seats did since this seat last gave an order: every phase played since, its
// results and dice, each phase one click from its map, and all of them replayed in turn.
const SINCE_LINES = 12; // per phase; the rest are counted
const REPLAY_MS = 1400;

function sinceLastTurn() {
  if (!state.seat) return null;
  const h = state.history;
  let last = -1;
  for (let i = h.length - 1; i >= 0; i--) {
    const orders = (h[i].orders || {})[state.seat];
    if ((orders && orders.length) || h[i].results.some((r) => r.power === state.seat)) {
      last = i;
      break;
    }
  }
  return last + 1 < h.length ? { last, from: last + 1 } : null;
}

function resultLine(r) {
  return r.power ? `${seatName(r.power)}: ${r.order} — ${describeOutcome(r)}` : r.message || r.order;
}

function renderSince() {
  const since = sinceLastTurn();
  const panel = $("since-panel");
  panel.hidden = !since || state.view.status === "forming";
  if (panel.hidden) return;
  const h = state.history;
  const count = h.length - since.from;
  $("since-summary").textContent = (since.last >= 0
    ? `${count} phase${count === 1 ? "" : "s"} played since your last orders (${phaseTitle(h[since.last])}).`
    : `${count} phase${count === 1 ? "" : "s"} played since the game began.`);
  const items = h.slice(since.from).map((record, k) => {
    const index = since.from + k;
    const theirs = record.results.filter((r) => r.power !== state.seat);
    const shown = theirs.slice(0, SINCE_LINES);
    return el("li", { dataset: { index: String(index) } },
      el("button", { type: "button", class: "small link", onclick: () => stepHistory(index) }, phaseTitle(record)),
      el("ul", {}, ...shown.map((r) => el("li", {}, resultLine(r),
        Array.isArray(r.dice) && r.dice.length ? el("span", { class: "hint" }, ` (dice ${r.dice.map(diceText).join("; ")})`) : "")),
      theirs.length > shown.length ? el("li", { class: "hint" }, `… and ${theirs.length - shown.length} more`) : null,
      theirs.length ? null : el("li", { class: "hint" }, "no orders")));
  });
  $("since-list").replaceChildren(...items);
}

let replaying = 0;
async function replaySince() {
  const since = sinceLastTurn();
  if (!since) return;
  const run = ++replaying;
  for (let i = since.from; i < state.history.length; i++) {
    if (run !== replaying) return;
    await stepHistory(i);
    await new Promise((done) => setTimeout(done, REPLAY_MS));
  }
  if (run === replaying) await stepHistory(null);
}

// A battle's dice, where it was fought: each roll a family places (its "at") is shown on the map
// of the phase that rolled it (the last one played, on the current map) until the next phase.
function drawDiceMarks() {
  const svg = $("map").querySelector("svg");
  if (!svg || !mapView.box) return;
  svg.querySelector("g.dice-marks")?.remove();
  const i = state.historyIndex;
  const record = i === null ? state.history[state.history.length - 1] : state.history[i];
  if (!record) return;
  const byPlace = new Map();
  for (const r of record.results) {
    for (const roll of Array.isArray(r.dice) ? r.dice : []) {
      if (!roll || typeof roll !== "object" || !roll.at) continue;
      const values = [roll.die, roll.dice].flat().filter((v) => typeof v === "number");
      if (!byPlace.has(roll.at)) byPlace.set(roll.at, []);
      byPlace.get(roll.at).push(...values);
    }
  }
  if (!byPlace.size) return;
  const perPx = unitsPerPx(svg);
  const group = document.createElementNS(SVG, "g");
  group.setAttribute("class", "dice-marks");
  group.setAttribute("pointer-events", "none");
  for (const [at, values] of byPlace) {
    const node = svg.querySelector(`[data-loc="${CSS.escape(at)}"][data-x], [data-space="${CSS.escape(at)}"][data-x]`)
      || svg.querySelector(`[data-loc="${CSS.escape(at)}"]`);
    if (!node || !values.length) continue;
    let x = Number(node.dataset.x), y = Number(node.dataset.y);
    if (!node.dataset.x) {
      const b = node.getBBox();
      x = b.x + b.width / 2;
      y = b.y + b.height / 2;
    }
    const shown = values.length > 12 ? [...values.slice(0, 12), "…"] : values;
    const text = `⚅ ${shown.join(" ")}`;
    const size = 12 * perPx;
    const width = (text.length * 0.62 + 1) * size;
    const mark = document.createElementNS(SVG, "g");
    mark.setAttribute("class", "dice-mark");
    mark.dataset.at = at;
    const box = document.createElementNS(SVG, "rect");
    for (const [k, v] of Object.entries({ x: x - width / 2, y: y - 2.4 * size, width, height: 1.5 * size, rx: 0.3 * size })) box.setAttribute(k, String(v));
    const label = document.createElementNS(SVG, "text");
    for (const [k, v] of Object.entries({ x, y: y - 1.3 * size, "font-size": size, "text-anchor": "middle" })) label.setAttribute(k, String(v));
    label.textContent = text;
    mark.append(box, label);
    group.append(mark);
  }
  svg.append(group);
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
  state.inspecting = null;
  state.link = { kind: null, from: null, to: null };
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
    svg.setAttribute("aria-label", i === null ? `Map of ${phaseTitle(state.view)}` : `Map of ${phaseTitle(state.history[i])} with its orders and results`);
    svg.dataset.phase = i === null ? state.view.phase : state.history[i].phase;
    const box = svg.viewBox.baseVal;
  }
  applyMapView();
  state.mapPlaces = new Set([...map.querySelectorAll("[data-loc]")].map((n) => province(n.dataset.loc)));
  for (const node of map.querySelectorAll("[data-power][data-colour]")) state.colours[node.dataset.power] = node.dataset.colour;
  for (const node of map.querySelectorAll("[data-owner][data-colour]")) state.colours[node.dataset.owner] = node.dataset.colour;
  paintSwatches();
  map.dataset.phase = i === null ? "current" : String(i);
  highlight();
  renderPicker();
  drawDiceMarks();
}

// ------------------------------------------------------------------ map view: zoom, pan, link style
// The view is the SVG's viewBox: zooming narrows it around a point, panning moves it, both kept
// within the whole map and carried over when the map is drawn again.
const MAX_ZOOM = 16; // a phone on one board of a wide map of several needs this much
// On a phone links are drawn as marked ends at first: lines across a narrow screen hide the map.
const mapView = { base: null, box: null, pointers: new Map(), start: null, moved: false, linkTags: phoneLayout(), opened: false };

function applyMapView() {
  const map = $("map");
  const svg = map.querySelector("svg");
  map.classList.toggle("links-tags", mapView.linkTags);
  const hasLinks = Boolean(map.querySelector(".link[data-a]"));
  $("link-style").hidden = !hasLinks;
  $("link-style").setAttribute("aria-pressed", String(mapView.linkTags));
  renderBoardButtons(map);
  if (!svg || !svg.viewBox.baseVal || !svg.viewBox.baseVal.width) return;
  const b = svg.viewBox.baseVal;
  const base = { x: b.x, y: b.y, w: b.width, h: b.height };
  const same = mapView.base && mapView.base.w === base.w && mapView.base.h === base.h;
  mapView.base = base;
  if (!same) mapView.box = null;
  setBox(mapView.box || base);
  if (!mapView.opened && state.view && (!state.seat || state.tree)) {
    mapView.opened = true;
    const first = openingView(svg);  // the opening view: on the player's pieces where crowded
    if (first) setBox(first);
  }
}

// The map opens on the player's own pieces when the whole map would crowd them: on a phone near
// enough that each is a tap target (TAP_PX apart at least), within their board when the map has
// several (a spectator sees the first board whole); on a desktop when they would be closer than
// DESK_PX (a hex map's counters), so that they can be read without zooming twice.
const DESK_PX = 12;
function openingView(svg) {
  const phone = phoneLayout();
  const base = mapView.base;
  const boards = [...new Set([...svg.querySelectorAll("g[data-board]")].map((n) => n.dataset.board))];
  const keys = Object.keys((state.tree && state.tree.orders) || {});
  let nodes = keys.map((k) => svg.querySelector(`[data-loc="${CSS.escape(k)}"]`)).filter(Boolean);
  const boardOf = nodes.length ? nodes[0].closest("[data-board]") : null;
  let area = base;
  if (phone && boards.length > 1) {
    const board = boardOf ? boardOf.dataset.board : boards[0];
    area = boardBox(board) || base;
    nodes = nodes.filter((n) => (n.closest("[data-board]") || {}).dataset?.board === board); // that board's
  }
  if (!nodes.length) return area === base ? null : area;
  const centres = nodes.map((n) => {
    if (n.dataset.x) return { x: Number(n.dataset.x), y: Number(n.dataset.y) };
    const b = n.getBBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  });
  let nearest = Infinity;
  for (const a of centres) for (const b of centres) if (a !== b) nearest = Math.min(nearest, Math.hypot(a.x - b.x, a.y - b.y));
  const perPx = unitsPerPx(svg);
  if (!phone && (!Number.isFinite(nearest) || nearest / perPx >= DESK_PX)) return null;
  const spacing = phone ? TAP_PX + 4 : 2 * DESK_PX; // a little over, for the rounding of the scale
  // Zoomed so that the nearest two are ``spacing`` pixels apart: the view narrows by that factor.
  const w = Math.min(area.w, Number.isFinite(nearest) ? (mapView.box.w * nearest) / (spacing * perPx) : area.w / 3);
  // A phone's screen is tall: its view is at least as tall as it is wide, so more of the map shows.
  // On a desktop, a wide map (the linked world's strip of boards) is shown as tall as the first
  // screen has room for below the map's top, not in the whole map's shape, a strip.
  const rect = $("map").getBoundingClientRect();
  const room = Math.max(rect.height, window.innerHeight - Math.max(0, rect.top) - 16);
  const desk = Math.max((w * area.h) / area.w, Math.min(w, (w * room) / Math.max(1, rect.width)));
  const h = Math.min(base.h, phone ? Math.max(w, (w * area.h) / area.w) : desk);
  const cx = centres.reduce((t, c) => t + c.x, 0) / centres.length;
  const cy = centres.reduce((t, c) => t + c.y, 0) / centres.length;
  return { x: cx - w / 2, y: cy - h / 2, w, h };
}

function boardBox(name) {
  const boxes = [...$("map").querySelectorAll(`g[data-board="${CSS.escape(name)}"]`)].map((n) => n.getBBox());
  if (!boxes.length) return null;
  const x0 = Math.min(...boxes.map((b) => b.x)), y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width)), y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

// A map of several boards (its spaces carry data-board) gets a button per board that zooms to it:
// on a phone, one board fills the screen. A redraw of the same boards keeps the buttons: the map is
// drawn again at every live update, and a button replaced between a click's press and its release
// loses the click.
function renderBoardButtons(map) {
  const names = [...new Set([...map.querySelectorAll("g[data-board]")].map((n) => n.dataset.board))];
  const shown = names.length > 1 ? names : [];
  const buttons = $("board-buttons");
  const current = [...buttons.children].map((b) => b.dataset.board);
  if (current.length === shown.length && current.every((name, i) => name === shown[i])) return;
  buttons.replaceChildren(...shown.map((name) => el("button", {
    type: "button", class: "small", dataset: { board: name }, onclick: () => zoomToBoard(name),
  }, `Board ${name}`)));
}

function zoomToBoard(name) {
  const box = boardBox(name);
  if (box && mapView.base) setBox(box); // the board's own shape: it fills the width
}

// The view box, kept within the whole map and no smaller than 1/MAX_ZOOM of it. The SVG element
// takes the view's shape (its width is the page's, its height follows), so a board's view fills
// a phone's width rather than being letterboxed in the whole map's shape.
function setBox(box) {
  const base = mapView.base;
  const svg = $("map").querySelector("svg");
  if (!base || !svg) return;
  const w = Math.min(base.w, Math.max(base.w / MAX_ZOOM, box.w));
  const h = Math.min(base.h, Math.max(base.h / MAX_ZOOM, box.h));
  const x = Math.min(base.x + base.w - w, Math.max(base.x, box.x));
  const y = Math.min(base.y + base.h - h, Math.max(base.y, box.y));
  mapView.box = { x, y, w, h };
  svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
  svg.setAttribute("width", String(w));
  svg.setAttribute("height", String(h));
  const whole = w >= base.w && h >= base.h;
  $("map").classList.toggle("zoomed", !whole);
  $("zoom-out").disabled = $("zoom-reset").disabled = whole;
  $("zoom-in").disabled = w <= base.w / MAX_ZOOM + 1e-9;
  for (const button of $("board-buttons").children) {
    const b = boardBox(button.dataset.board);
    button.setAttribute("aria-pressed", String(Boolean(b) && Math.abs(b.x - x) < 1 && Math.abs(b.w - w) < 1));
  }
  hitAreas();
  drawDiceMarks();
}

// Zoom by ``factor`` keeping the map point under (clientX, clientY) in place (default: the centre).
function zoom(factor, clientX, clientY) {
  const svg = $("map").querySelector("svg");
  if (!svg || !mapView.box) return;
  const rect = svg.getBoundingClientRect();
  const fx = clientX === undefined ? 0.5 : (clientX - rect.left) / rect.width;
  const fy = clientY === undefined ? 0.5 : (clientY - rect.top) / rect.height;
  const box = mapView.box;
  const w = box.w / factor, h = box.h / factor;
  setBox({ x: box.x + fx * (box.w - w), y: box.y + fy * (box.h - h), w, h });
}

function pointerDown(event) {
  if (!mapView.box || !$("map").querySelector("svg")) return;
  mapView.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  mapView.start = { box: { ...mapView.box }, pointers: new Map(mapView.pointers) };
  mapView.moved = false;
}

function pointerMove(event) {
  if (!mapView.pointers.has(event.pointerId) || !mapView.start) return;
  mapView.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  const svg = $("map").querySelector("svg");
  const rect = svg.getBoundingClientRect();
  const points = [...mapView.pointers.values()];
  const starts = [...mapView.start.pointers.values()];
  if (points.length >= 2 && starts.length >= 2) {
    // Two fingers: zoom by how far apart they are, around their middle.
    const spread = (p) => Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y) || 1;
    const factor = spread(points) / spread(starts);
    const box = mapView.start.box;
    const mid = { x: (starts[0].x + starts[1].x) / 2, y: (starts[0].y + starts[1].y) / 2 };
    const fx = (mid.x - rect.left) / rect.width, fy = (mid.y - rect.top) / rect.height;
    const w = box.w / factor, h = box.h / factor;
    setBox({ x: box.x + fx * (box.w - w), y: box.y + fy * (box.h - h), w, h });
    mapView.moved = true;
    return;
  }
  const first = starts[0];
  const dx = event.clientX - first.x, dy = event.clientY - first.y;
  if (!mapView.moved && Math.hypot(dx, dy) < 5) return;
  if (mapView.box.w >= mapView.base.w && mapView.box.h >= mapView.base.h) return; // nothing to pan
  // Captured by the container, which stays when a live update draws the map again.
  if (!mapView.moved) $("map").setPointerCapture(event.pointerId);
  mapView.moved = true;
  $("map").classList.add("panning");
  const box = mapView.start.box;
  setBox({ x: box.x - (dx * box.w) / rect.width, y: box.y - (dy * box.h) / rect.height, w: box.w, h: box.h });
}

function pointerUp(event) {
  mapView.pointers.delete(event.pointerId);
  $("map").classList.remove("panning");
  mapView.start = mapView.pointers.size ? { box: { ...mapView.box }, pointers: new Map(mapView.pointers) } : null;
}

function wheel(event) {
  if (!(event.ctrlKey || event.metaKey) || !mapView.box) return; // a plain wheel scrolls the page
  event.preventDefault();
  zoom(event.deltaY < 0 ? 1.25 : 0.8, event.clientX, event.clientY);
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
  $("map").addEventListener("pointerdown", pointerDown);
  $("map").addEventListener("pointermove", pointerMove);
  $("map").addEventListener("pointerup", pointerUp);
  $("map").addEventListener("pointercancel", pointerUp);
  $("map").addEventListener("wheel", wheel, { passive: false });
  $("zoom-in").addEventListener("click", () => zoom(1.5));
  $("zoom-out").addEventListener("click", () => zoom(1 / 1.5));
  $("zoom-reset").addEventListener("click", () => mapView.base && setBox(mapView.base));
  $("link-style").addEventListener("click", () => {
    mapView.linkTags = !mapView.linkTags;
    applyMapView();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.selected) select(null);
    if (event.key === "Escape" && state.inspecting) {
      state.inspecting = null;
      renderPicker();
    }
    if (event.key === "Escape" && state.link.kind) chooseLinkKind(null);
  });
  $("since-replay").addEventListener("click", replaySince);
  for (const id of ["hist-first", "hist-prev", "hist-next", "hist-now"]) $(id).addEventListener("click", () => { replaying += 1; });
  $("facts-toggle").addEventListener("click", () => {
    const open = $("facts-toggle").getAttribute("aria-expanded") !== "true";
    $("facts-toggle").setAttribute("aria-expanded", String(open));
    document.body.classList.toggle("facts-open", open);
  });
  if (window.matchMedia("(pointer: coarse)").matches) $("zoom-hint").textContent = "Pinch to zoom; drag to move the map.";
  window.addEventListener("resize", hitAreas);
  setInterval(tick, 1000);
  loadAll().then(listen);
}

main();
