// The report text: a mirror behind the textarea marks the parse error, checked as the judge types.
import { $, el, send } from "./common.js";

let checkTimer = null, checkSeq = 0;
function mirror(error) {
  const text = $("#report").value;
  const pre = $("#report-mirror");
  pre.textContent = "";
  if (!error || !error.line) { pre.append(text + "\n"); return; }
  const lines = text.split("\n");
  let start = 0;
  for (let i = 0; i < error.line - 1 && i < lines.length; i++) start += lines[i].length + 1;
  start += Math.max(0, error.column - 1);
  const rest = text.slice(start);
  const word = (rest.match(/^[^\s,.]+/) || rest.match(/^\S+/) || [" "])[0];
  pre.append(text.slice(0, start), el("mark", { class: "error-at", text: word }), text.slice(start + word.length) + "\n");
  pre.scrollTop = $("#report").scrollTop;
}
export function showError(err) {
  const box = $("#parse-status");
  box.className = "status bad";
  box.textContent = "";
  const info = err.info || { message: err.message };
  if (info.line) {
    box.append(el("b", { class: "where", text: `line ${info.line}, column ${info.column}: ` }));
  }
  box.append(el("span", { class: "message", text: info.message }));
  if (info.expected && info.expected.length) box.append(el("div", { class: "expected", text: "expected: " + info.expected.join(", ") }));
  if (info.suggestions && info.suggestions.length) box.append(el("div", { class: "suggestions", text: "closest: " + info.suggestions.join(" · ") }));
  mirror(info.line ? info : null);
}
async function check() {
  const seq = ++checkSeq;
  const text = $("#report").value;
  if (!text.trim()) { $("#parse-status").textContent = ""; mirror(null); return; }
  try {
    const result = await send("/api/parse", { report: text, source: "report" });
    if (seq !== checkSeq) return;
    const box = $("#parse-status");
    box.className = "status ok";
    const n = result.reports.reduce((s, r) => s + r.observations, 0);
    box.textContent = `✓ reads as ${result.reports.length} report${result.reports.length === 1 ? "" : "s"} ` +
      `(${result.reports.map((r) => r.policy).join(", ")}), ${n} observation${n === 1 ? "" : "s"}`;
    mirror(null);
  } catch (err) {
    if (seq === checkSeq) showError(err);
  }
}
export function onText() {
  mirror(null);
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, 250);
}
