// Shared by the pages: the JSON API, the seat tokens kept in localStorage, and DOM helpers.

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.details = (body && body.details) || [];
  }
}

// The server itself runs again a seat's write that raced another write to the same game, so a
// request is sent once: sending it again after a 409 could act on a phase the player has not seen.
export async function api(method, path, options = {}) {
  return request(method, path, options);
}

async function request(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!response.ok) throw new ApiError(response.status, typeof data === "object" ? data : null);
  return data;
}

// Tokens: {seat: token} per game, and the game master's token of the games created here.
const seatKey = (gameId) => `interboard.seats.${gameId}`;
const gmKey = (gameId) => `interboard.gm.${gameId}`;

export function seatTokens(gameId) {
  try {
    return JSON.parse(localStorage.getItem(seatKey(gameId)) || "{}");
  } catch {
    return {};
  }
}

export function saveSeatToken(gameId, seat, token) {
  const all = seatTokens(gameId);
  all[seat] = token;
  localStorage.setItem(seatKey(gameId), JSON.stringify(all));
}

export function forgetSeat(gameId, seat) {
  const all = seatTokens(gameId);
  delete all[seat];
  localStorage.setItem(seatKey(gameId), JSON.stringify(all));
}

export const gmToken = (gameId) => localStorage.getItem(gmKey(gameId));
export const saveGmToken = (gameId, token) => localStorage.setItem(gmKey(gameId), token);

export const playerName = () => localStorage.getItem("interboard.name") || "";
export const savePlayerName = (name) => localStorage.setItem("interboard.name", name);

// el("button", {type: "button", onclick: f}, "text", child, ...)
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function errorText(error) {
  if (!(error instanceof ApiError)) return String(error.message || error);
  const details = error.details
    .filter((d) => d.where || d.order)
    .map((d) => (d.where ? `${d.where}: ${d.error}` : `${d.order}: ${d.error}`));
  return details.length ? `${error.message} (${details.join("; ")})` : error.message;
}

// "PAR", "STP/SC", "SPA/NC-Y" -> the province: "PAR", "STP", "SPA-Y".
export const province = (loc) => String(loc).toUpperCase().replace(/\/[A-Z]{2}/, "");

export function describeDuration(seconds) {
  if (seconds <= 0) return "now";
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  if (d) return `${d} d ${h} h`;
  if (h) return `${h} h ${String(m).padStart(2, "0")} min`;
  return `${m}:${String(s).padStart(2, "0")}`;
}

// What a game is, in the names players know: its variant's title, after its family's when the title
// does not say it ("Diplomacy: Twin Earths I", "Axis & Allies Europe (1999)"), from a game's
// summary of /api/games, /api/games/{id} or /api/account/games (variant_title, family_title; the ids
// where they are missing).
export function gameKind({ variant, variant_title: variantTitle, family, family_title: familyTitle }) {
  const name = variantTitle || variant || "";
  const group = familyTitle || family || "";
  return !group || name.includes(group) ? name : `${group}: ${name}`;
}
