// The signed-in account, shared by the pages: who is signed in (the session is an HttpOnly cookie
// that scripts never see, so they ask the server), the header's sign-in status, and on the game
// page a banner (and a browser notification, if allowed) when a phase is processed.
import { api, ApiError, el } from "./common.js";

// The account ({name, email, notices}), or null when signed out.
export async function currentAccount() {
  try {
    return await api("GET", "/api/account");
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

// Fill the header's #account-status: "signed in as NAME" or a link to sign in, in the lobby.
export function showAccountStatus(account) {
  const slot = document.getElementById("account-status");
  if (!slot) return;
  slot.replaceChildren(account
    ? el("span", {}, "Signed in as ", el("a", { href: "/#account-h" }, account.name))
    : el("a", { href: "/#account-h" }, "Sign in"));
}

// The game page: a visible banner, and a browser notification while the tab is hidden (if the
// player allowed them), when a phase is processed. game.js already says so in its live region
// (#announce), which is watched here so that game.js need not know of it.
function watchPhases() {
  const live = document.getElementById("announce");
  const banner = document.getElementById("phase-banner");
  if (!live || !banner) return;
  document.getElementById("phase-banner-close").addEventListener("click", () => { banner.hidden = true; });
  new MutationObserver(() => {
    const text = live.textContent || "";
    if (!text.startsWith("Phase processed")) return;
    document.getElementById("phase-banner-text").textContent = text;
    banner.hidden = false;
    if ("Notification" in window && Notification.permission === "granted" && document.hidden) {
      new Notification(document.title, { body: text });
    }
  }).observe(live, { childList: true, characterData: true, subtree: true });
  const ask = document.getElementById("notify-button");
  if (ask && "Notification" in window && Notification.permission === "default") {
    ask.hidden = false;
    ask.addEventListener("click", async () => {
      await Notification.requestPermission();
      ask.hidden = true;
    });
  }
}

// On a page that only shows the status (the game page): look once when loaded.
if (document.body && document.body.dataset.accountStatus === "auto") {
  currentAccount().then(showAccountStatus, () => {});
  watchPhases();
}
