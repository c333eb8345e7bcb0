// The signed-in account, shared by the pages: who is signed in (the session is an HttpOnly cookie
// that scripts never see, so they ask the server), and the header's sign-in status.
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

// On a page that only shows the status (the game page): look once when loaded.
if (document.body && document.body.dataset.accountStatus === "auto") {
  currentAccount().then(showAccountStatus, () => {});
}
