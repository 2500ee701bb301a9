// The rule page: rule the report text, or submit it to the event's record.
//
// Which report a Submit sends: every successful submit starts a new report (a new source
// name), so the next incident typed in this tab is recorded as its own report and never
// replaces the one before.  The text just submitted, sent again unchanged, is the same
// report (nothing written: a double tap is safe).  A recorded report is replaced only after
// the judge reopens it on purpose ("Edit report #N"), and then only after a prompt naming
// the report and its penalties.
import { $, askInPlace, el, getJSON, judge, meta, openSettings, send } from "./common.js";
import { initBuilder, loadRoster, resetBuilder } from "./builder.js";
import { onText, showError, syncScroll } from "./report-text.js";

const KEYS = { draft: "ppgcheck.source", last: "ppgcheck.submitted", editing: "ppgcheck.editing" };
const kept = {
  get: (k) => { try { return JSON.parse(sessionStorage.getItem(k) || "null"); } catch (e) { return null; } },
  set: (k, v) => sessionStorage.setItem(k, JSON.stringify(v)),
  drop: (...ks) => ks.forEach((k) => sessionStorage.removeItem(k)),
};

function draftSource() {
  let s = sessionStorage.getItem(KEYS.draft);
  if (!s) {
    s = "station-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 7);
    sessionStorage.setItem(KEYS.draft, s);
  }
  return s;
}
function sourceFor(text) {
  const editing = kept.get(KEYS.editing);
  if (editing) return editing.source;                       // reopened on purpose
  const last = kept.get(KEYS.last);
  if (last && last.text === text) return last.source;       // the same text again: the same report
  return draftSource();                                     // anything else: a new report
}

// a recorded report's live penalties in a line: "Lee: INTELLECT PENALTY for tardiness, round 7"
const loud = (penalty) => (penalty ? penalty.toUpperCase().replaceAll("-", " ") : "PENDING");
async function describe(reportId) {
  try {
    const sub = await getJSON(`/api/event/reports/${reportId}`);
    const live = sub.recorded.filter((p) => p.status === "in-force" || p.status === "pending");
    if (!live.length) return "no penalty in force";
    return live.map((p) => `${p.player}: ${loud(p.penalty)} for ${p.infraction}`
      + (p.day ? `, day ${p.day}` : "") + (p.round ? `, round ${p.round}` : "")
      + (p.table ? `, table ${p.table}` : "")).join("; ");
  } catch (e) {
    return "";
  }
}

// the result in view: on a phone it lands below the fold (the card's penalty off screen)
function reveal(node) {
  if (node && node.scrollIntoView) node.scrollIntoView({ block: "start" });
}

async function ruleNow() {
  const result = $("#result");
  result.setAttribute("aria-busy", "true");
  try {
    result.innerHTML = await send("/ui/card", { report: $("#report").value, source: "report", tolerant: true },
      { html: true });
    if (meta("event")) {
      result.prepend(el("p", { class: "hint", text: "Not recorded yet: the event's earlier penalties count when you submit." }));
    }
    reveal(result);
  } catch (err) {
    showError(err);
  } finally {
    result.removeAttribute("aria-busy");
  }
}

function showEditing() {
  const editing = kept.get(KEYS.editing);
  const box = $("#editing");
  if (!box) return;
  box.hidden = !editing;
  if (!editing) return;
  $("#editing-what").textContent = `report #${editing.report_id}` + (editing.summary ? ` (${editing.summary})` : "");
}
function stopEditing() {
  kept.drop(KEYS.editing);
  showEditing();
}

// after a submit: the next Submit is a new report; this one can be reopened on purpose
function offerEdit(result, submitted) {
  const ids = submitted.report_ids.map((id) => "#" + id).join(", ");
  result.prepend(el("p", { class: "next-report hint" },
    el("span", { text: "Submitted. The next report you type is recorded as a new report. " }),
    el("button", { type: "button", id: "edit-report", class: "link", text: `Edit report ${ids}`,
      onclick: () => {
        kept.set(KEYS.editing, submitted);
        $("#report").value = submitted.text;
        onText();
        showEditing();
        $("#report").focus();
        reveal($("#editor"));
      } })));
}

// --- Submit: one state machine.  idle -> (checking ->) sending -> idle; while a submission
// is in flight the button is disabled, and a refusal is shown beside the button, in words a
// judge acts on (not the API's), whatever the live parse check says meanwhile.
const REFUSED = {
  401: "Submitting needs your judge token: scan the station's QR code, or ask the Head Judge for the token "
    + "and enter it here (it is kept under Judge), then Submit again.",
  403: "This token may not submit: scan the station's QR code again, or ask the Head Judge for the judge token.",
};
let submitting = false;
function refuse(message, action) {
  const box = $("#submit-status");
  box.className = "status bad";
  box.replaceChildren(el("span", { class: "message", text: message }));
  if (action) box.append(action);
  box.scrollIntoView({ block: "nearest" });
}
function setSubmitting(on) {
  submitting = on;
  $("#submit").disabled = on;
  $("#submit").setAttribute("aria-busy", String(on));
  if (on) { $("#submit-status").className = "status"; $("#submit-status").textContent = "submitting…"; }
}

// a report whose ruling gives no penalty at all: recorded only when the judge confirms it
async function givesNoPenalty(text) {
  const ruled = await send("/api/rule", { report: text, source: "report", questions: false, tolerant: true });
  return ruled.every((r) => !(r.rulings || []).length);
}

async function submitNow(amend = false, confirmed = false) {
  if (submitting) return;
  if (!judge()) {
    // asked beside the button: the settings panel is a screen or more above it on a phone
    openSettings();
    const name = askInPlace("name", () => submitNow());
    refuse("Enter your name (it is recorded with the report), then Submit again:",
      el("span", { class: "ask-row" }, name,
        el("button", { type: "button", id: "submit-named", class: "primary alt", text: "Submit",
          onclick: () => submitNow() })));
    name.focus({ preventScroll: true });
    return;
  }
  const result = $("#result");
  const text = $("#report").value;
  const source = sourceFor(text);
  setSubmitting(true);
  result.setAttribute("aria-busy", "true");
  try {
    if (!confirmed && !amend && await givesNoPenalty(text)) {
      refuse("This report gives no penalty: record it anyway?",
        el("button", { type: "button", id: "confirm-no-penalty", class: "primary alt", text: "Record it",
          onclick: () => submitNow(false, true) }));
      return;
    }
    result.innerHTML = await send("/ui/submit", { report: text, judge: judge(), source, amend, tolerant: true },
      { write: true, html: true });
    $("#submit-status").textContent = "";
    kept.drop(KEYS.draft, KEYS.editing);                    // a new report next time
    showEditing();                                          // (at once, with the answer shown)
    const ids = [...result.querySelectorAll(".submission")].map((s) => s.dataset.reportId);
    const last = ids.length ? ids[ids.length - 1] : "";
    const submitted = { source, text, report_ids: ids, report_id: last, summary: await describe(last) };
    kept.set(KEYS.last, submitted);
    offerEdit(result, submitted);
    reveal(result);
    loadRoster();
  } catch (err) {
    if (err.status === 422 && err.info && err.info.kind === "resubmitted") {
      // the report reopened has been edited: replacing it is a choice, named in full.
      // Asked in the result box: the parse check's answer, which may land later, rewrites
      // the status line (the button vanished there under load)
      $("#submit-status").textContent = "";
      const id = err.info.recorded_report;
      const what = await describe(id);
      result.replaceChildren(el("div", { class: "status bad amend-prompt" },
        el("span", { class: "message", text: `This replaces report #${id}` + (what ? ` (${what})` : "")
          + `. Replacing it supersedes the recorded ruling: its penalties stop counting and this report's `
          + `count in their place.` }),
        el("button", { type: "button", id: "amend", class: "primary alt",
          text: `Replace report #${id}`, onclick: () => submitNow(true) }),
        el("button", { type: "button", id: "amend-cancel", class: "link",
          text: "Record it as a new report instead", onclick: () => { stopEditing(); submitNow(false); } })));
      reveal(result);
      return;
    }
    if (err.status === 401 || err.status === 403) {
      refuse(REFUSED[err.status], el("span", { class: "ask-row" }, askInPlace("token", () => submitNow())));
      openSettings();
    } else if (err.info && err.info.line) {
      refuse("The report cannot be read: see the line marked above.");
      showError(err);
    } else {
      refuse(err.message);
    }
  } finally {
    setSubmitting(false);
    result.removeAttribute("aria-busy");
  }
}
export function initRulePage() {
  $("#report").addEventListener("input", onText);
  $("#report").addEventListener("scroll", syncScroll);
  $("#rule").addEventListener("click", ruleNow);
  if ($("#submit")) $("#submit").addEventListener("click", () => submitNow(false));
  if ($("#editing-stop")) $("#editing-stop").addEventListener("click", stopEditing);
  if ($("#new-report")) $("#new-report").addEventListener("click", () => {
    kept.drop(KEYS.draft, KEYS.last, KEYS.editing);
    showEditing();
    resetBuilder();
    $("#result").textContent = "";
  });
  showEditing();
  initBuilder().catch((err) => showError(err));
}
