// The event's record: void a penalty or a whole report, choose among the permitted penalties,
// change a penalty's notes (Head Judge token), and rule again the reports that counted a change.
import { $, askInPlace, el, judge, openSettings, send } from "./common.js";

const shownPenalty = (penalty) => penalty.toUpperCase().replaceAll("-", " ");

// a change only the Head Judge makes: its answer, or null with the refusal shown in its status line
// (what is missing, the name or the Head Judge token, is asked for beside the button: the
// settings panel is at the top of the page, a screen or more above the form on a phone)
async function change(statusSelector, url, body) {
  const status = $(statusSelector);
  const ask = (message, kind) => {
    openSettings();
    const input = askInPlace(kind);
    status.className = "status bad";
    status.replaceChildren(el("span", { class: "message", text: message }), el("span", { class: "ask-row" }, input));
    input.focus({ preventScroll: true });
    status.scrollIntoView({ block: "center" });
  };
  if (!judge()) { ask("Enter your name (it is recorded with the change), then tap the button again:", "name"); return null; }
  try {
    return await send(url, { ...body, judge: judge() }, { write: true });
  } catch (err) {
    if ((err.status === 401 || err.status === 403) && $("#token")) {
      ask("Only the Head Judge can do this: enter the Head Judge token (the station printed it where it was "
        + "started; ask the Head Judge), then tap the button again:", "head-token");
      return null;
    }
    status.textContent = err.message;
    status.className = "status bad";
    return null;
  }
}

// later rulings counted what changed: offer to rule them again with the penalties in force now
function offerRerule(later, what, reason) {
  if (!later.length) { location.reload(); return; }
  const panel = $("#rerule-panel");
  panel.hidden = false;
  panel.dataset.reports = later.join(",");
  panel.dataset.reason = reason;
  $("#rerule-what").textContent = what;
  $("#rerule-reports").textContent = later.map((r) => "#" + r).join(", ");
}

// what ruling again changed, said after the reload (the list alone showed only "replaces #3")
const RERULED = "ppgcheck.reruled";
function reruledLine(report, amended) {
  if (!amended.length) return `Report #${report} ruled again: no penalty changed.`;
  return `Report #${report} ruled again: ` + amended.map(({ old, new: now }) => `${old.player} `
    + `${shownPenalty(old.penalty || "pending")} (#${old.id}) → ${shownPenalty(now.penalty || "pending")} (#${now.id})`)
    .join("; ") + ".";
}
function showReruled() {
  const lines = JSON.parse(sessionStorage.getItem(RERULED) || "null");
  sessionStorage.removeItem(RERULED);
  if (!lines || !lines.length) return;
  // (at the top of the page, in its flow: a bar fixed over the list would cover its buttons)
  const bar = el("div", { id: "reruled", class: "panel status reruled", role: "status" });
  for (const line of lines) bar.append(el("p", { text: line }));
  bar.append(el("button", { type: "button", class: "link", text: "Dismiss", onclick: () => { bar.hidden = true; } }));
  $("main").prepend(bar);
  window.scrollTo(0, 0);
}

function initRerule() {
  showReruled();
  $("#rerule-skip").addEventListener("click", () => location.reload());
  // the reports whose history changed since they were ruled (listed on every load, until ruled again)
  const stale = $("#stale");
  if (stale) {
    $("#stale-rerule").addEventListener("click", () =>
      offerRerule(stale.dataset.reports.split(","), "Their history changed since they were ruled",
        "the history the event gives changed since the ruling"));
  }
  $("#rerule").addEventListener("click", async () => {
    const panel = $("#rerule-panel");
    try {
      const lines = [];
      for (const report of panel.dataset.reports.split(",")) {
        const ruled = await send(`/api/event/reports/${report}/rerule`, { reason: panel.dataset.reason, judge: judge() },
          { write: true });
        lines.push(reruledLine(report, ruled.amended || []));
      }
      sessionStorage.setItem(RERULED, JSON.stringify(lines));     // (said once the record is shown again,
      history.scrollRestoration = "manual";                         // at the top of the page)
      location.reload();
    } catch (err) {
      $("#rerule-status").textContent = err.message;
      $("#rerule-status").className = "status bad";
    }
  });
}

// pending penalties only (`?pending=1`, the filter form's box): the rows are all in the page,
// the others are hidden; the count names how many wait for the Head Judge
function initPending() {
  const table = $("table.penalties");
  const box = $("#pending-only");
  const toggle = $("#pending-toggle");
  const show = (only) => {
    if (table) table.classList.toggle("only-pending", only);
    box.checked = only;
    if (toggle) toggle.textContent = only ? "show every penalty" : "show only pending";
    const url = new URL(location.href);
    if (only) url.searchParams.set("pending", "1"); else url.searchParams.delete("pending");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  };
  show(new URL(location.href).searchParams.get("pending") === "1");
  box.addEventListener("change", () => show(box.checked));
  if (toggle) toggle.addEventListener("click", () => show(!table.classList.contains("only-pending")));
}

// the store finds a player by the exact name: a name typed in another case (or a part of
// one name only) is sent as the roster spells it
function initPlayerFilter() {
  const form = $("form.filters");
  const input = form.querySelector('input[name="player"]');
  form.addEventListener("submit", () => {
    const typed = input.value.trim().toLowerCase();
    if (!typed) return;
    const roster = [...document.querySelectorAll("#roster option")].map((o) => o.value);
    const same = roster.filter((n) => n.toLowerCase() === typed);
    const near = roster.filter((n) => n.toLowerCase().includes(typed));
    if (same.length === 1) input.value = same[0];
    else if (!same.length && near.length === 1) input.value = near[0];
  });
}

// the event's own settings (Head Judge): a new report's builder starts from them
function initSettingsForm() {
  const form = $("#event-settings-form");
  if (!form) return;
  $("#event-settings-change").addEventListener("click", () => { form.hidden = false; $("#es-policy").focus(); });
  $("#event-settings-cancel").addEventListener("click", () => { form.hidden = true; });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const value = (id) => $(id).value || null;
    const number = (id) => ($(id).value ? Number($(id).value) : null);
    const body = { policy: value("#es-policy"), rel: value("#es-rel"), day: number("#es-day"),
      round: number("#es-round"), round_kind: value("#es-round-kind") };
    if (await change("#event-settings-status", "/api/event/settings", body)) location.reload();
  });
}

export function initEventPage() {
  initSettingsForm();
  initPending();
  initPlayerFilter();
  const forms = { void: $("#void-form"), amend: $("#amend-form"), notes: $("#notes-form") };
  // one form at a time, for the penalty of the row clicked
  function openForm(name, button) {
    for (const [other, form] of Object.entries(forms)) form.hidden = other !== name;
    forms[name].dataset.penaltyId = button.dataset.penaltyId;
    $(`#${name}-id`).textContent = button.dataset.penaltyId;
    $(`#${name}-status`).textContent = "";
    $(`#${name}-status`).className = "status";
  }
  const closeForms = () => { for (const form of Object.values(forms)) form.hidden = true; };
  const rowOf = (id) => document.querySelector(`tr[data-penalty-id="${id}"]`);

  for (const button of document.querySelectorAll("button.void")) {
    button.addEventListener("click", () => {
      openForm("void", button);
      $("#void-reason").focus();
    });
  }
  for (const button of document.querySelectorAll("button.amend")) {
    button.addEventListener("click", () => {
      openForm("amend", button);
      $("#amend-infraction").textContent = button.dataset.infraction;
      forms.amend.querySelector("button[type=submit]").textContent = button.dataset.penalty ? "Change" : "Choose";
      const select = $("#amend-penalty");
      select.replaceChildren();
      for (const penalty of button.dataset.permitted.split(" ")) {
        if (penalty === button.dataset.penalty) continue;      // (the one issued: nothing to change)
        const option = document.createElement("option");
        option.value = penalty;
        option.textContent = shownPenalty(penalty);
        select.append(option);
      }
      $("#amend-reason").focus();
    });
  }
  for (const button of document.querySelectorAll("button.notes")) {
    button.addEventListener("click", () => {
      openForm("notes", button);
      $("#notes-text").value = button.dataset.notes;
      $("#notes-text").focus();
    });
  }
  for (const name of Object.keys(forms)) $(`#${name}-cancel`).addEventListener("click", closeForms);

  // (the changed row shows its change at once: a voided one leaves the live penalties)
  forms.void.addEventListener("submit", async (e) => {
    e.preventDefault();
    const id = forms.void.dataset.penaltyId;
    const reason = $("#void-reason").value;
    const voided = await change("#void-status", `/api/event/penalties/${id}/void`, { reason });
    if (voided) {
      rowOf(id).remove();
      closeForms();
      offerRerule(voided.counted_by_reports || [], "Voided", `penalty #${id} voided: ${reason}`);
    }
  });
  forms.amend.addEventListener("submit", async (e) => {
    e.preventDefault();
    const id = forms.amend.dataset.penaltyId;
    const reason = $("#amend-reason").value;
    const penalty = $("#amend-penalty").value;
    const amended = await change("#amend-status", `/api/event/penalties/${id}/amend`, { penalty, reason });
    if (amended) {
      rowOf(id).querySelector("b").textContent = shownPenalty(penalty);
      closeForms();
      offerRerule(amended.counted_by_reports || [], `Changed to ${shownPenalty(penalty)}`,
        `penalty #${id} changed to ${penalty}: ${reason}`);
    }
  });
  // other notes change no ruling: the record is shown again
  forms.notes.addEventListener("submit", async (e) => {
    e.preventDefault();
    const id = forms.notes.dataset.penaltyId;
    const body = { notes: $("#notes-text").value, reason: $("#notes-reason").value };
    if (await change("#notes-status", `/api/event/penalties/${id}/amend`, body)) location.reload();
  });
  initRerule();
}

// a recorded report's slip: void the whole report (ruled by mistake), Head Judge
export function initSlipPage() {
  const form = $("#void-report-form");
  if (!form) return;              // (a report no longer in force)
  $("#void-report-open").addEventListener("click", () => {
    form.hidden = false;
    $("#void-report-reason").focus();
  });
  $("#void-report-cancel").addEventListener("click", () => { form.hidden = true; });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const id = form.dataset.reportId;
    const reason = $("#void-report-reason").value;
    const voided = await change("#void-report-status", `/api/event/reports/${id}/void`, { reason });
    if (voided) {
      form.hidden = true;
      $("#void-report-open").hidden = true;
      const n = voided.voided.length;
      offerRerule(voided.counted_by_reports || [], `Report #${id} voided with ${n} penalt${n === 1 ? "y" : "ies"}`,
        `report #${id} voided: ${reason}`);
    }
  });
  initRerule();
}
