// Log in and register.
import { api, saveSession, primeTables } from "./api.js";
import { h, clear, field } from "./dom.js";
import { toast, errorText } from "./ui.js";
import { credentialError } from "./view.js";

export function showLogin(main, onLoggedIn) {
  clear(main);
  const errLogin = h("p", { class: "form-error", testid: "login-error", role: "alert" });
  const errReg = h("p", { class: "form-error", testid: "register-error", role: "alert" });
  const credHint = "4–32 letters and digits";
  const mk = (testid, type, autocomplete) =>
    h("input", { type, testid, required: true, minlength: "4", maxlength: "32", pattern: "[A-Za-z0-9]{4,32}", autocomplete, autocapitalize: "off", spellcheck: "false" });
  const lLogin = mk("login-login", "text", "username");
  const lPass = mk("login-password", "password", "current-password");
  const rLogin = mk("register-login", "text", "username");
  const rNick = mk("register-nick", "text", "nickname");
  const rPass = mk("register-password", "password", "new-password");

  async function doLogin(login, password, errEl, btn) {
    btn.disabled = true;
    try {
      const res = await api.login(login, password);
      saveSession({ token: res.token, login: res.user.login, user: res.user, expiresAt: res.expires_in ? Date.now() + res.expires_in * 1000 - 5000 : null });
      primeTables(res.tables);
      onLoggedIn();
    } catch (e) {
      errEl.textContent = errorText(e);
    } finally {
      btn.disabled = false;
    }
  }

  const loginBtn = h("button", { type: "submit", class: "btn btn-primary", testid: "login-submit" }, "Log in");
  const loginForm = h(
    "form",
    {
      class: "panel auth-form", testid: "login-form", "aria-labelledby": "login-title", novalidate: true,
      onsubmit: (e) => {
        e.preventDefault();
        const err = credentialError("Login", lLogin.value) || (lPass.value ? null : "Password is required.");
        errLogin.textContent = err || "";
        if (!err) doLogin(lLogin.value, lPass.value, errLogin, loginBtn);
      },
    },
    h("h1", { id: "login-title" }, "Log in"),
    field("Login", lLogin),
    field("Password", lPass),
    errLogin,
    loginBtn,
  );
  const regBtn = h("button", { type: "submit", class: "btn", testid: "register-submit" }, "Create account");
  const regForm = h(
    "form",
    {
      class: "panel auth-form", testid: "register-form", "aria-labelledby": "register-title", novalidate: true,
      onsubmit: async (e) => {
        e.preventDefault();
        const err = credentialError("Login", rLogin.value) || credentialError("Nick", rNick.value) || credentialError("Password", rPass.value);
        errReg.textContent = err || "";
        if (err) return;
        regBtn.disabled = true;
        try {
          await api.register(rLogin.value, rNick.value, rPass.value);
          toast(`Welcome, ${rNick.value}! You start with 10,000 coins.`, { tone: "info" });
          await doLogin(rLogin.value, rPass.value, errReg, regBtn);
        } catch (e2) {
          errReg.textContent = errorText(e2);
        } finally {
          regBtn.disabled = false;
        }
      },
    },
    h("h2", { id: "register-title" }, "New here? Register"),
    field("Login", rLogin, credHint),
    field("Nick", rNick, credHint),
    field("Password", rPass, credHint),
    errReg,
    regBtn,
  );
  main.appendChild(
    h(
      "section",
      { class: "auth" },
      h("p", { class: "tagline" }, "Four tables, honest shoes you can verify, and a coach at your side. Coins are virtual."),
      h("div", { class: "auth-grid" }, loginForm, regForm),
      h("p", { class: "muted small" }, "Each browser tab keeps its own login, so you can play several accounts side by side."),
    ),
  );
  lLogin.focus();
}
