// Log in and register.
import { api, primeTables, saveSession } from "./api.js";
import { clear, field, h } from "./dom.js";
import { t } from "./i18n.js";
import { credentialError } from "./input.js";
import { errorText, languagePicker, toast } from "./ui.js";

export function showLogin(main, onLoggedIn) {
  clear(main);
  const login = loginForm(onLoggedIn);
  main.appendChild(
    h(
      "section",
      { class: "auth" },
      h("div", { class: "auth-head" }, h("p", { class: "tagline" }, t("login.tagline")), languagePicker()),
      h("div", { class: "auth-grid" }, login, registerForm(onLoggedIn)),
      h("p", { class: "muted small" }, t("login.tabs")),
    ),
  );
  login.querySelector("input").focus();
}

function credentialInput(testid, type, autocomplete) {
  return h("input", {
    type,
    testid,
    required: true,
    minlength: "4",
    maxlength: "32",
    pattern: "[A-Za-z0-9]{4,32}",
    autocomplete,
    autocapitalize: "off",
    spellcheck: "false",
  });
}

async function logIn(login, password, errEl, btn, onLoggedIn) {
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

function loginForm(onLoggedIn) {
  const error = h("p", { class: "form-error", testid: "login-error", role: "alert" });
  const login = credentialInput("login-login", "text", "username");
  const password = credentialInput("login-password", "password", "current-password");
  const submit = h("button", { type: "submit", class: "btn btn-primary", testid: "login-submit" }, t("login.submit"));
  const onsubmit = (e) => {
    e.preventDefault();
    const err = credentialError(t("login.login"), login.value) || (password.value ? null : t("login.passwordRequired"));
    error.textContent = err || "";
    if (!err) logIn(login.value, password.value, error, submit, onLoggedIn);
  };
  return h(
    "form",
    { class: "panel auth-form", testid: "login-form", "aria-labelledby": "login-title", novalidate: true, onsubmit },
    h("h1", { id: "login-title" }, t("login.title")),
    field(t("login.login"), login),
    field(t("login.password"), password),
    error,
    submit,
  );
}

function registerForm(onLoggedIn) {
  const error = h("p", { class: "form-error", testid: "register-error", role: "alert" });
  const login = credentialInput("register-login", "text", "username");
  const nick = credentialInput("register-nick", "text", "nickname");
  const password = credentialInput("register-password", "password", "new-password");
  const submit = h("button", { type: "submit", class: "btn", testid: "register-submit" }, t("login.register"));
  const onsubmit = async (e) => {
    e.preventDefault();
    // every field's problem at once: one at a time, a form takes as many tries as it has errors
    const err = [
      credentialError(t("login.login"), login.value),
      credentialError(t("login.nick"), nick.value),
      credentialError(t("login.password"), password.value),
    ]
      .filter(Boolean)
      .join(" ");
    error.textContent = err;
    if (err) return;
    submit.disabled = true;
    try {
      await api.register(login.value, nick.value, password.value);
      toast(t("login.welcome", { nick: nick.value, coins: 10000 }), { tone: "info" });
      await logIn(login.value, password.value, error, submit, onLoggedIn);
    } catch (e2) {
      error.textContent = errorText(e2);
    } finally {
      submit.disabled = false;
    }
  };
  return h(
    "form",
    { class: "panel auth-form", testid: "register-form", "aria-labelledby": "register-title", novalidate: true, onsubmit },
    h("h2", { id: "register-title" }, t("login.registerTitle")),
    field(t("login.login"), login, t("login.hint")),
    field(t("login.nick"), nick, t("login.hint")),
    field(t("login.password"), password, t("login.hint")),
    error,
    submit,
  );
}
