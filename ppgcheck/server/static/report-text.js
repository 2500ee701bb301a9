// The report text: read as the judge types (the tolerant reader: free sentences too), its
// reading shown ("read as ... / not read: ..."), a sentence it cannot read marked at its line
// and column behind the textarea, with whole-line suggestions a tap puts in its place.
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
  while (start > 0 && /[\w'-]/.test(text[start - 1])) start--;     // the whole word, from its start
  const rest = text.slice(start);
  // the word from the column on: a word's letters (`minuts`, not `uts`), up to a space or comma
  const word = (rest.match(/^[^\s,.]+/) || rest.match(/^\S+/) || [" "])[0];
  pre.append(text.slice(0, start), el("mark", { class: "error-at", text: word }), text.slice(start + word.length) + "\n");
  syncScroll();
}
// the mark scrolls with the text: the mirror is sized and scrolled as the textarea is
export function syncScroll() {
  const area = $("#report"), pre = $("#report-mirror");
  pre.style.height = area.offsetHeight + "px";
  pre.scrollTop = area.scrollTop;
}

// a suggestion is a whole line: a tap puts it in place of the line the error is on
function useSuggestion(line, suggestion) {
  const lines = $("#report").value.split("\n");
  if (line >= 1 && line <= lines.length) lines[line - 1] = suggestion;
  $("#report").value = lines.join("\n");
  onText();
  $("#report").focus();
}

// a sentence starts with the person it is about, declared in a `player:` line: the judge's
// note "Kim had 8 cards in hand, ..." in a report naming no Kim is read as nothing
const NOT_NAMES = new Set(["she", "he", "they", "it", "the", "a", "an", "in", "at", "during", "after", "before",
  "when", "while", "then", "her", "his", "their", "both", "each", "player", "spectator", "judge"]);
function undeclaredName(line) {
  const first = (line.trim().match(/^[A-Z\u00C0-\u024F][\p{L}\d_'.-]*/u) || [""])[0];
  if (!first || NOT_NAMES.has(first.toLowerCase())) return "";
  const declared = $("#report").value.split("\n")
    .map((l) => l.match(/^\s*(?:player|spectator)\s*:\s*"?([^"]+?)"?\s*$/i)).filter(Boolean)
    .map((m) => m[1].toLowerCase());
  return declared.some((d) => d === first.toLowerCase() || d.startsWith(first.toLowerCase() + " ")) ? "" : first;
}
function declare(name, before) {
  const lines = $("#report").value.split("\n");
  lines.splice(Math.max(0, before - 1), 0, `player: ${name}`);
  $("#report").value = lines.join("\n");
  onText();
  $("#report").focus();
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
  if (info.expected && info.expected.length) {
    // (the parser's last item points a command-line user to `ppgcheck vocab`: a judge is told the count)
    const expected = info.expected.map((e) => e.replace(/^\.\.\. (\d+) more.*$/, "… $1 more"));
    box.append(el("div", { class: "expected", text: "expected: " + expected.join(", ") }));
  }
  if (info.suggestions && info.suggestions.length) {
    const list = el("div", { class: "suggestions" }, el("span", { text: "did you mean (tap to use):" }));
    for (const s of info.suggestions) {
      list.append(el("button", { type: "button", class: "suggestion", text: s,
        onclick: () => useSuggestion(info.line, s) }));
    }
    box.append(list);
  } else if (info.line) {
    // no suggestion for a sentence (not a `header:` line): a name the report does not
    // declare is offered as a player, and the builder offers its search
    const line = $("#report").value.split("\n")[info.line - 1] || "";
    if (!/^\s*[\w ]+:/.test(line)) {
      const name = undeclaredName(line);
      if (name) {
        box.append(el("div", { class: "suggestions" }, el("span", { text: `${name} is not a player of this report:` }),
          el("button", { type: "button", class: "suggestion declare", text: `player: ${name}`,
            onclick: () => declare(name, info.line) })));
      }
      document.dispatchEvent(new CustomEvent("unread-sentence", { detail: { text: line, box } }));
    }
  }
  mirror(info.line ? info : null);
}

function showReading(result, text) {
  const box = $("#parse-status");
  box.className = "status ok";
  box.textContent = "";
  const n = result.reports.reduce((s, r) => s + r.observations, 0);
  box.append(el("span", { text: `✓ reads as ${result.reports.length} report${result.reports.length === 1 ? "" : "s"} ` +
    `(${result.reports.map((r) => r.policy).join(", ")}), ${n} observation${n === 1 ? "" : "s"}` }));
  for (const r of result.reports) {
    for (const reading of r.readings || []) {
      const item = el("div", { class: "reading", "data-line": String(reading.line) },
        el("span", { class: "read-as" }, el("small", { text: `line ${reading.line} read as: ` }), reading.read_as));
      if (reading.not_read.length) {
        item.append(el("span", { class: "not-read" }, el("small", { text: " not read: " }), reading.not_read.join(" · ")));
      }
      box.append(item);
    }
  }
  mirror(null);
  // the builder's policy follows the report's `policy:` line (the two never disagree)
  if (result.reports.length === 1) {
    document.dispatchEvent(new CustomEvent("report-policy", { detail: { policy: result.reports[0].policy, text } }));
  }
}

// a report that cannot be read yet still names its policy: the builder's select follows it
function followPolicy(text) {
  if (/^\s*---\s*$/m.test(text)) return;                 // (several reports: no one policy)
  const named = text.match(/^\s*policy\s*:\s*([\w-]+)\s*$/im);
  if (!named) return;
  document.dispatchEvent(new CustomEvent("report-policy", { detail: { policy: named[1].toLowerCase(), text } }));
}

async function check() {
  const seq = ++checkSeq;
  const text = $("#report").value;
  if (!text.trim()) { $("#parse-status").textContent = ""; mirror(null); return; }
  try {
    const result = await send("/api/read", { report: text, source: "report" });
    if (seq !== checkSeq) return;
    // (a report it cannot read yet is an answer, not a failed request)
    if (result.error) {
      showError({ message: result.error.message, info: result.error });
      followPolicy(text);
    } else showReading(result, text);
  } catch (err) {
    if (seq === checkSeq) showError(err);
  }
}
export function onText() {
  mirror(null);
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, 250);
}
