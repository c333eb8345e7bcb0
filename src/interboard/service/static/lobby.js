// The lobby: create a game (variant, options, press, deadlines, seats, the seat its creator plays)
// and join an open seat; sign up or in, and get back into the seats the account holds.
import { currentAccount, showAccountStatus } from "./account.js";
import {
  api, ApiError, el, errorText, gameKind, playerName, saveGmToken, savePlayerName, saveSeatToken, seatTokens,
} from "./common.js";

let variants = [];
let sendsMail = null; // whether the server sends e-mail (GET /api/server); null: not known
let account = null; // the signed-in account ({name, email, email_verified, notices}), or null

const $ = (id) => document.getElementById(id);
const YOU = "you"; // a seat select's value for the seat the creator plays

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
      el("select", { id, name: seat, dataset: { seat }, onchange: seatKindChanged },
        el("option", { value: YOU }, "you"),
        el("option", { value: "open" }, "open"),
        ...(variant.bots || []).map((bot) => el("option", { value: `bot:${bot}` }, `bot: ${bot}`)),
        el("option", { value: "bot" }, "empty (no orders)")));
  }));
  $("my-seat").replaceChildren(...variant.seats.map((seat) => el("option", { value: seat }, seat)),
    el("option", { value: "" }, "none: watch only"));
  $("my-seat").value = variant.seats[0] || "";
  showMySeat();
}

// The creator's seat, chosen in "Your seat" or as "you" in a seat's own select: the two agree, and
// one seat at most is "you" (the seat the creator left becomes open).
function showMySeat() {
  const mine = $("my-seat").value;
  for (const select of document.querySelectorAll("#seat-kinds select")) {
    if (select.dataset.seat === mine) select.value = YOU;
    else if (select.value === YOU) select.value = "open";
  }
  $("creator-name-field").hidden = !mine;
}

function seatKindChanged(event) {
  const select = event.target;
  const mine = $("my-seat");
  if (select.value === YOU) mine.value = select.dataset.seat;
  else if (mine.value === select.dataset.seat) mine.value = "";
  showMySeat();
}

// The bot that plays a seat: the family's own (the one that takes over a leaving player's seat),
// else the first offered (the generic random bot is offered in every family); "bot" (a seat that
// gives no orders) only if there is none.
function playingBot(variant) {
  const bot = variant.default_bot || (variant.bots || [])[0];
  return bot ? `bot:${bot}` : "bot";
}

function botsElsewhere() {
  const bot = playingBot(chosenVariant());
  for (const select of document.querySelectorAll("#seat-kinds select")) {
    if (select.value !== YOU) select.value = bot;
  }
  const mine = $("my-seat").value;
  const who = bot === "bot" ? "an empty seat (no orders)" : `bot ${bot.slice(4)}`;
  $("create-status").textContent = mine ? `Every seat but ${mine}: ${who}.` : `Every seat: ${who}.`;
}

function renderVariants() {
  const list = document.getElementById("variant-list");
  const families = [...new Set(variants.map((v) => v.family))];
  let first = true;
  const title = (family) => variants.find((v) => v.family === family).family_title || family;
  list.replaceChildren(...families.map((family) => el("div", { class: "family", dataset: { family } },
    el("h3", {}, title(family)),
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
  // The creator's seat is given the creator's name: the server assigns it in the same request and
  // answers its token, so it is taken before the game can start (with every other seat a bot, it
  // starts at once).
  const mine = $("my-seat").value;
  const typed = $("creator-name").value.trim();
  const name = typed || mine;
  if (mine && (name === "open" || name === "bot" || name.startsWith("bot:"))) {
    status.textContent = 'Not created: your name may not be "open" or "bot", nor start with "bot:".';
    $("creator-name").focus();
    return;
  }
  const seats = {};
  for (const select of document.querySelectorAll("#seat-kinds select")) {
    const seat = select.dataset.seat;
    seats[seat] = seat === mine ? name : select.value;
  }
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
    if (typed) savePlayerName(typed);
    status.textContent = "Created; opening the game…";
    const page = `/games/${created.game_id}`;
    location.assign(mine && created.seat_tokens[mine] ? `${page}?seat=${encodeURIComponent(mine)}` : page);
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
      el("span", { class: "hint" }, ` ${gameKind(game)} · ${game.status} · ${game.phase}`),
      open.length
        ? el("div", { class: "button-list", role: "group", "aria-label": `Open seats in ${game.title}` },
            open.map((s) => el("button", { type: "button", onclick: () => join(game, s.seat) }, `Join ${s.seat}`)))
        : el("p", { class: "hint" }, "no open seats"));
  })));
}

// ------------------------------------------------------------------ the account

function say(text) {
  $("account-message").textContent = text;
}

async function showAccount(signedIn) {
  account = signedIn;
  showAccountStatus(account);
  $("signed-out").hidden = Boolean(account);
  $("signed-in").hidden = !account;
  if (!account) return;
  $("account-name").textContent = account.name;
  $("account-email").value = account.email || "";
  $("account-notices").checked = account.notices;
  showEmailStatus();
  if (!$("player-name").value) $("player-name").value = account.name;
  if (!$("creator-name").value) $("creator-name").value = account.name;
  await loadMyGames();
}

// Whether the address is confirmed: notices go only to one whose link was followed.
function showEmailStatus() {
  const status = $("email-status");
  const unconfirmed = Boolean(account && account.email && !account.email_verified);
  status.hidden = !(account && account.email) || sendsMail === false;
  status.textContent = unconfirmed
    ? `Not confirmed yet: follow the link in the message sent to ${account.email}. Notices start then.`
    : "Confirmed.";
  $("verify-again").hidden = !unconfirmed || !sendsMail;
}

async function verifyAgain() {
  try {
    const sent = await api("POST", "/api/account/email/verification");
    say(`A confirmation message is on its way to ${sent.email}.`);
  } catch (error) {
    say(`No message sent: ${errorText(error)}`);
  }
}

async function deleteAccount(event) {
  event.preventDefault();
  try {
    const answer = await api("DELETE", "/api/account", { body: { password: $("delete-password").value } });
    const left = answer.seats_left;
    $("delete-form").reset();
    say(`Account deleted; ${left} seat${left === 1 ? "" : "s"} left in games not over.`);
    await showAccount(null);
  } catch (error) {
    say(`Not deleted: ${errorText(error)}`);
  }
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
      el("span", { class: "hint" }, ` ${gameKind(game)} · ${game.status} · ${game.phase} `),
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
  const body = { email: email || null };
  if (sendsMail) body.notices = $("account-notices").checked; // else left as it is
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

// Notices are offered only by a server that sends e-mail; one that does not says so.
function showMail(server) {
  sendsMail = server.mail;
  $("notices-field").hidden = !sendsMail;
  $("mail-pitch").hidden = !sendsMail;
  $("no-mail").hidden = sendsMail;
  $("sign-up-email-hint").textContent = sendsMail ? "optional, for notices" : "optional; this server sends no e-mail";
  showEmailStatus();
}

async function main() {
  document.getElementById("player-name").value = playerName();
  $("creator-name").value = playerName();
  document.getElementById("create-form").addEventListener("submit", create);
  $("my-seat").addEventListener("change", showMySeat);
  $("bots-button").addEventListener("click", botsElsewhere);
  api("GET", "/api/server").then(showMail, () => {}); // not known: neither offered nor denied
  $("sign-in-form").addEventListener("submit", signIn);
  $("sign-up-form").addEventListener("submit", signUp);
  $("sign-out").addEventListener("click", signOut);
  $("account-form").addEventListener("submit", saveAccount);
  $("password-form").addEventListener("submit", changePassword);
  $("verify-again").addEventListener("click", verifyAgain);
  $("delete-form").addEventListener("submit", deleteAccount);
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
