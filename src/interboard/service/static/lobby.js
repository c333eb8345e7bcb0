// The lobby: create a game (variant, options, press, deadlines, seats) and join an open seat; sign
// up or in, and get back into the seats the account holds.
import { currentAccount, showAccountStatus } from "./account.js";
import {
  api, ApiError, el, errorText, playerName, saveGmToken, savePlayerName, saveSeatToken, seatTokens,
} from "./common.js";

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

// ------------------------------------------------------------------ the account

const $ = (id) => document.getElementById(id);

function say(text) {
  $("account-message").textContent = text;
}

async function showAccount(account) {
  showAccountStatus(account);
  $("signed-out").hidden = Boolean(account);
  $("signed-in").hidden = !account;
  if (!account) return;
  $("account-name").textContent = account.name;
  $("account-email").value = account.email || "";
  $("account-notices").checked = account.notices;
  if (!$("player-name").value) $("player-name").value = account.name;
  await loadMyGames();
}

async function loadMyGames() {
  const box = $("my-games");
  let games;
  try {
    games = await api("GET", "/api/account/games");
  } catch (error) {
    box.replaceChildren(el("p", {}, `Could not load your games: ${errorText(error)}`));
    return;
  }
  if (!games.length) {
    box.replaceChildren(el("p", { class: "hint" }, "No seats yet: join one, or create a game, while signed in."));
    return;
  }
  box.replaceChildren(el("ul", { class: "my-games" }, games.map((game) =>
    el("li", { class: "my-game", dataset: { gameId: game.id } },
      el("a", { href: `/games/${game.id}` }, game.title),
      el("span", { class: "hint" }, ` ${game.variant} · ${game.status} · ${game.phase} `),
      game.seats.map((seat) => el("button", { type: "button", onclick: () => play(game.id, seat) },
        `Play ${seat}`))))));
}

// Into a seat the account holds: with the token this browser keeps if it still works, else with a
// fresh one (which revokes the seat's earlier token, in whatever browser it was).
async function play(gameId, seat) {
  const kept = seatTokens(gameId)[seat];
  let works = false;
  if (kept) {
    try {
      await api("GET", `/api/games/${gameId}/seat`, { token: kept });
      works = true;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 403) {
        say(`Could not open ${seat}: ${errorText(error)}`);
        return;
      }
    }
  }
  if (!works) {
    try {
      const fresh = await api("POST", `/api/account/games/${gameId}/seats/${encodeURIComponent(seat)}/token`);
      saveSeatToken(gameId, seat, fresh.token);
    } catch (error) {
      say(`Could not get back into ${seat}: ${errorText(error)}`);
      return;
    }
  }
  location.assign(`/games/${gameId}?seat=${encodeURIComponent(seat)}`);
}

async function signIn(event) {
  event.preventDefault();
  const body = { name: $("sign-in-name").value.trim(), password: $("sign-in-password").value };
  try {
    const account = await api("POST", "/api/session", { body });
    $("sign-in-password").value = "";
    say(`Signed in as ${account.name}.`);
    await showAccount(account);
  } catch (error) {
    say(`Not signed in: ${errorText(error)}`);
  }
}

async function signUp(event) {
  event.preventDefault();
  const body = { name: $("sign-up-name").value.trim(), password: $("sign-up-password").value };
  const email = $("sign-up-email").value.trim();
  if (email) body.email = email;
  try {
    const account = await api("POST", "/api/accounts", { body });
    $("sign-up-password").value = "";
    say(`Welcome, ${account.name}: you are signed in.`);
    await showAccount(account);
  } catch (error) {
    say(`Not signed up: ${errorText(error)}`);
  }
}

async function signOut() {
  try {
    await api("DELETE", "/api/session");
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) {
      say(`Not signed out: ${errorText(error)}`);
      return;
    }
  }
  say("Signed out.");
  await showAccount(null);
}

async function saveAccount(event) {
  event.preventDefault();
  const email = $("account-email").value.trim();
  const body = { email: email || null, notices: $("account-notices").checked };
  try {
    await showAccount(await api("PATCH", "/api/account", { body }));
    say("Saved.");
  } catch (error) {
    say(`Not saved: ${errorText(error)}`);
  }
}

async function changePassword(event) {
  event.preventDefault();
  const body = { current: $("password-current").value, password: $("password-new").value };
  try {
    const answer = await api("PUT", "/api/account/password", { body });
    const ended = answer.sessions_ended;
    say(`Password changed; ${ended} other session${ended === 1 ? "" : "s"} signed out.`);
    $("password-form").reset();
  } catch (error) {
    say(`Password not changed: ${errorText(error)}`);
  }
}

async function main() {
  document.getElementById("player-name").value = playerName();
  document.getElementById("create-form").addEventListener("submit", create);
  $("sign-in-form").addEventListener("submit", signIn);
  $("sign-up-form").addEventListener("submit", signUp);
  $("sign-out").addEventListener("click", signOut);
  $("account-form").addEventListener("submit", saveAccount);
  $("password-form").addEventListener("submit", changePassword);
  currentAccount().then(showAccount, (error) => say(`Could not tell whether you are signed in: ${errorText(error)}`));
  try {
    variants = await api("GET", "/api/variants");
    renderVariants();
  } catch (error) {
    document.getElementById("variant-list").replaceChildren(el("p", {}, errorText(error)));
  }
  await loadGames();
}

main();
