// The judge station's shared parts: DOM helpers, the judge's name and token, requests.
// Hand-written, no dependencies; user text only ever enters the DOM as text
// (server fragments come from autoescaped templates).
export const $ = (sel, root = document) => root.querySelector(sel);
export const meta = (name) => (document.querySelector(`meta[name="${name}"]`) || {}).content || "";
export const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
};
export const saved = {
  get: (k) => { try { return localStorage.getItem("ppgcheck." + k) || ""; } catch (e) { return ""; } },
  set: (k, v) => { try { localStorage.setItem("ppgcheck." + k, v); } catch (e) { /* private mode */ } },
};

// --- the judge: name and token (a QR code's ?token= is kept, then dropped from the URL) ---
const url = new URL(location.href);
if (url.searchParams.has("token")) {
  saved.set("token", url.searchParams.get("token"));
  url.searchParams.delete("token");
  history.replaceState(null, "", url.pathname + url.search + url.hash);
}
export const token = () => ($("#token") ? $("#token").value.trim() : "");
export const judge = () => $("#judge-name").value.trim();

async function showRole() {
  const headers = token() ? { Authorization: "Bearer " + token() } : {};
  try {
    const s = await (await fetch("/api/session", { headers })).json();
    const line = $("#role-line");
    if (!s.tokens_required) line.textContent = "This station runs on this machine only: no token needed.";
    else line.textContent = s.role ? `Your token: ${s.role === "head-judge" ? "Head Judge" : "judge"}.`
      : "No valid token: you can rule, not submit.";
  } catch (e) { /* offline: nothing to say */ }
}
export function initSettings() {
  $("#judge-name").value = saved.get("judge");
  $("#judge-name").addEventListener("change", () => saved.set("judge", judge()));
  if ($("#token")) {
    $("#token").value = saved.get("token");
    $("#token").addEventListener("change", () => { saved.set("token", token()); showRole(); });
  }
  // the panel sits at the top of the page: opened from far down (or opened by a refusal while
  // the judge was down there), the tap brings it into view instead of closing it unseen
  $("#settings-toggle").addEventListener("click", () => {
    const panel = $("#settings");
    if (!panel.hidden && panel.getBoundingClientRect().top >= 0) {
      panel.hidden = true;
      $("#settings-toggle").setAttribute("aria-expanded", "false");
      return;
    }
    openSettings();
    window.scrollTo(0, 0);
    if (!judge()) $("#judge-name").focus({ preventScroll: true });
  });
  showRole();
}
export function openSettings(focus) {
  $("#settings").hidden = false;
  $("#settings-toggle").setAttribute("aria-expanded", "true");
  if (focus) $(focus).focus();
}

// a refusal the judge answers where it is shown: a field beside it that fills the settings
// panel's own (the name, or the token), so the button tapped again sends it
export function askInPlace(kind, onEnter) {
  const target = $(kind === "name" ? "#judge-name" : "#token");
  const label = { name: "your name", token: "judge token", "head-token": "Head Judge token" }[kind];
  const input = el("input", { class: "ask-in-place", "aria-label": label, placeholder: label, maxlength: "100",
    autocomplete: kind === "name" ? "name" : "off", spellcheck: "false" });
  if (target && kind === "name") input.value = target.value;
  input.addEventListener("input", () => { if (target) target.value = input.value.trim(); });
  // kept, and the token's role shown again, once typed (not a request a keystroke)
  input.addEventListener("change", () => { if (target) target.dispatchEvent(new Event("change")); });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && onEnter) { e.preventDefault(); onEnter(); }
  });
  return input;
}


// --- requests: JSON errors become thrown Errors carrying the server's error object ---
export async function send(path, body, { write = false, html = false } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (write) {
    headers["X-CSRF-Token"] = meta("csrf-token");
    if (token()) headers.Authorization = "Bearer " + token();
  }
  const res = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
  if (!res.ok) {
    let info;
    try { info = (await res.json()).error; } catch (e) { info = { message: `${res.status} ${res.statusText}` }; }
    const err = new Error(info.message);
    err.info = info;
    err.status = res.status;
    throw err;
  }
  return html ? res.text() : res.json();
}
export const getJSON = async (path) => {
  const res = await fetch(path);
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return res.json();
};
