// The lobby: create a game (variant, options, press, deadlines, seats) and join an open seat.
import { api, el, errorText, playerName, saveGmToken, savePlayerName, saveSeatToken } from "./common.js";

let variants = [];

function chosenVariant() {
  const checked = document.querySelector('input[name="variant"]:checked');
  return variants.find((v) => v.id === (checked ? checked.value : "standard")) || variants[0];
}

function optionInput(option) {
  const id = `opt-${option.name}`;
  const label = option.name.replaceAll("_", " ");
  const hint = el("span", { class: "hint" }, ` ${option.help}`);
  if (option.type === "bool") {
    return el("div", { class: "field check" },
      el("input", { type: "checkbox", id, name: option.name, checked: option.default, dataset: { type: "bool" } }),
      el("label", { for: id }, label, hint));
  }
  if (option.choices) {
    return el("div", { class: "field" }, el("label", { for: id }, label, hint),
      el("select", { id, name: option.name, dataset: { type: "str" } },
        ...option.choices.map((c) => el("option", { value: c, selected: c === option.default }, c))));
  }
  if (option.type === "int") {
    return el("div", { class: "field" }, el("label", { for: id }, label, hint),
      el("input", { type: "number", id, name: option.name, value: option.default, min: option.minimum,
        max: option.maximum, step: 1, inputmode: "numeric", dataset: { type: "int" } }));
  }
  return el("div", { class: "field" }, el("label", { for: id }, label, hint),
    el("input", { id, name: option.name, value: option.default, maxlength: 100, dataset: { type: "str" } }));
}

function showVariant() {
  const variant = chosenVariant();
  const box = document.getElementById("variant-options");
  box.replaceChildren(...variant.options.map(optionInput));
  document.getElementById("options-box").hidden = variant.options.length === 0;
  const deadlines = document.getElementById("deadline-fields");
  deadlines.replaceChildren(...variant.phase_kinds.map((kind) => el("label", {}, `${kind} `,
    el("input", { type: "number", min: 1, step: 1, name: kind, id: `dl-${kind}`, inputmode: "numeric",
      dataset: { kind } }))));
  const seats = document.getElementById("seat-kinds");
  seats.replaceChildren(...variant.seats.map((seat) => {
    const id = `seat-${seat}`;
    return el("div", { class: "field seat-kind" }, el("label", { for: id }, seat),
      el("select", { id, name: seat, dataset: { seat } },
        el("option", { value: "open" }, "open"),
        ...(variant.bots || []).map((bot) => el("option", { value: `bot:${bot}` }, `bot: ${bot}`)),
        el("option", { value: "bot" }, "empty (no orders)")));
  }));
}

function renderVariants() {
  const list = document.getElementById("variant-list");
  const families = [...new Set(variants.map((v) => v.family))];
  let first = true;
  list.replaceChildren(...families.map((family) => el("div", { class: "family", dataset: { family } },
    el("h3", {}, family),
    ...variants.filter((v) => v.family === family).map((v) => {
      const id = `variant-${v.id}`;
      const checked = first;
      first = false;
      return el("div", { class: "variant" },
        el("input", { type: "radio", name: "variant", id, value: v.id, checked, onchange: showVariant,
          "aria-describedby": `${id}-desc` }),
        el("label", { for: id }, el("strong", {}, v.title), ` (${v.seats.length} seats)`),
        el("p", { id: `${id}-desc`, class: "hint" }, v.description));
    }))));
  showVariant();
}

function readOptions(variant) {
  const options = {};
  for (const input of document.querySelectorAll("#variant-options input, #variant-options select")) {
    const type = input.dataset.type;
    const value = type === "bool" ? input.checked : type === "int" ? Number(input.value) : input.value;
    const option = variant.options.find((o) => o.name === input.name);
    if (option && value !== option.default) options[input.name] = value;
  }
  return options;
}

async function create(event) {
  event.preventDefault();
  const status = document.getElementById("create-status");
  const variant = chosenVariant();
  const deadlines = {};
  for (const input of document.querySelectorAll("#deadline-fields input")) {
    const minutes = Number(input.value);
    if (minutes > 0) deadlines[input.dataset.kind] = Math.round(minutes * 60);
  }
  const seats = {};
  for (const select of document.querySelectorAll("#seat-kinds select")) seats[select.dataset.seat] = select.value;
  const body = {
    variant: variant.id,
    title: document.getElementById("game-title").value.trim(),
    options: readOptions(variant),
    press: document.getElementById("press").value,
    deadlines,
    seats,
  };
  status.textContent = "Creating…";
  try {
    const created = await api("POST", "/api/games", { body });
    saveGmToken(created.game_id, created.gm_token);
    for (const [seat, token] of Object.entries(created.seat_tokens)) saveSeatToken(created.game_id, seat, token);
    status.textContent = "Created; opening the game…";
    location.assign(`/games/${created.game_id}`);
  } catch (error) {
    status.textContent = `Not created: ${errorText(error)}`;
  }
}

async function join(game, seat) {
  const status = document.getElementById("join-status");
  const name = document.getElementById("player-name").value.trim();
  savePlayerName(name);
  try {
    const answer = await api("POST", `/api/games/${game.id}/join`, { body: { seat, player: name } });
    saveSeatToken(game.id, seat, answer.token);
    location.assign(`/games/${game.id}?seat=${encodeURIComponent(seat)}`);
  } catch (error) {
    status.textContent = `Could not join ${seat}: ${errorText(error)}`;
  }
}

async function loadGames() {
  const list = document.getElementById("game-list");
  let games;
  try {
    games = await api("GET", "/api/games");
  } catch (error) {
    list.replaceChildren(el("p", {}, `Could not load the games: ${errorText(error)}`));
    return;
  }
  if (!games.length) {
    list.replaceChildren(el("p", {}, "No games yet: create one."));
    return;
  }
  list.replaceChildren(el("ul", { class: "games" }, games.map((game) => {
    const open = game.seats.filter((s) => s.kind === "open");
    return el("li", { class: "game-entry", dataset: { gameId: game.id } },
      el("a", { href: `/games/${game.id}` }, game.title),
      el("span", { class: "hint" }, ` ${game.variant} · ${game.status} · ${game.phase}`),
      open.length
        ? el("div", { class: "button-list", role: "group", "aria-label": `Open seats in ${game.title}` },
            open.map((s) => el("button", { type: "button", onclick: () => join(game, s.seat) }, `Join ${s.seat}`)))
        : el("p", { class: "hint" }, "no open seats"));
  })));
}

async function main() {
  document.getElementById("player-name").value = playerName();
  document.getElementById("create-form").addEventListener("submit", create);
  try {
    variants = await api("GET", "/api/variants");
    renderVariants();
  } catch (error) {
    document.getElementById("variant-list").replaceChildren(el("p", {}, errorText(error)));
  }
  await loadGames();
}

main();
