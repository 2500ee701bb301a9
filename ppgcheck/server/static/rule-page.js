// The rule page: rule the report text, or submit it to the event's record.
import { $, el, judge, meta, openSettings, send } from "./common.js";
import { initBuilder, loadRoster, resetBuilder } from "./builder.js";
import { onText, showError } from "./report-text.js";

function sourceName() {
  let s = sessionStorage.getItem("ppgcheck.source");
  if (!s) {
    s = "station-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 7);
    sessionStorage.setItem("ppgcheck.source", s);
  }
  return s;
}
async function ruleNow() {
  const result = $("#result");
  result.setAttribute("aria-busy", "true");
  try {
    result.innerHTML = await send("/ui/card", { report: $("#report").value, source: "report" }, { html: true });
    if (meta("event")) {
      result.prepend(el("p", { class: "hint", text: "Not recorded yet: the event's earlier penalties count when you submit." }));
    }
  } catch (err) {
    showError(err);
  } finally {
    result.removeAttribute("aria-busy");
  }
}
async function submitNow(amend = false) {
  if (!judge()) { openSettings("#judge-name"); showError(new Error("enter your name under Judge first")); return; }
  const result = $("#result");
  result.setAttribute("aria-busy", "true");
  try {
    result.innerHTML = await send("/ui/submit",
      { report: $("#report").value, judge: judge(), source: sourceName(), amend },
      { write: true, html: true });
    loadRoster();
  } catch (err) {
    if (err.status === 422 && err.info && err.info.kind === "resubmitted") {
      // this report was submitted before and has been edited since: replacing it is a choice.
      // Asked in the result box: the parse check's answer, which may land later, rewrites
      // the status line (the button vanished there under load)
      result.replaceChildren(el("div", { class: "status bad amend-prompt" },
        el("span", { class: "message", text: `This report was recorded before as report `
          + `#${err.info.recorded_report} and has been edited since. Replacing it supersedes `
          + `the recorded ruling: its penalties stop counting and this report's count in their place.` }),
        el("button", { type: "button", id: "amend", class: "primary alt",
          text: "Replace the recorded report", onclick: () => submitNow(true) })));
      return;
    }
    showError(err);
    if (err.status === 401 || err.status === 403) openSettings("#token");
  } finally {
    result.removeAttribute("aria-busy");
  }
}
export function initRulePage() {
  $("#report").addEventListener("input", onText);
  $("#report").addEventListener("scroll", () => { $("#report-mirror").scrollTop = $("#report").scrollTop; });
  $("#rule").addEventListener("click", ruleNow);
  if ($("#submit")) $("#submit").addEventListener("click", () => submitNow(false));
  if ($("#new-report")) $("#new-report").addEventListener("click", () => {
    sessionStorage.removeItem("ppgcheck.source");
    resetBuilder();
    $("#result").textContent = "";
  });
  initBuilder().catch((err) => showError(err));
}
