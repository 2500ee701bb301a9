// The report builder, generated from /api/vocab and the policy's own vocabulary: the judge
// picks players, observations and the state of the match; the report text is written from them.
import { $, el, getJSON, meta, saved } from "./common.js";
import { onText } from "./report-text.js";

const B = { vocab: null, policy: null, search: {}, searching: null, loads: 0, players: [], spectators: [],
  observations: [], states: [], tallies: [], keywords: new Set(), built: "", event: {} };
// the persons an observation may name: the players, then the spectators (`Q gave P advice`)
const persons = () => [...B.players, ...B.spectators];

function quoteName(name) {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !B.keywords.has(name.toLowerCase())
    ? name : JSON.stringify(name);
}
// a form's slot values as the report writes them: names quoted where they must be
const quoted = (values) => Object.fromEntries(Object.entries(values).map(
  ([k, v]) => [k, k === "P" || k === "Q" ? quoteName(v) : v]));

const singular = (text) => text.replace(/\b1 (extra )?(card|minute)s\b/g, "1 $1$2");
function fill(text, values) {
  const filled = text.replace(/\{(\w+)\}/g, (_, slot) => values[slot] || `{${slot}}`);
  return singular(filled);
}
function numberOptions(select, lo, hi, keepBlank) {
  const blank = keepBlank ? select.querySelector('option[value=""]') : null;
  select.textContent = "";
  if (blank) select.append(blank);
  for (let n = lo; n <= hi; n++) select.append(el("option", { value: String(n), text: String(n) }));
}
function options(select, values, blankText) {
  select.textContent = "";
  if (blankText !== undefined) select.append(el("option", { value: "", text: blankText }));
  for (const v of values) select.append(el("option", { value: v, text: v }));
}

// the event's own settings (the Head Judge's: policy, REL, day, round and its kind); none
// without an event, or where it cannot be read
async function eventSettings() {
  if (!meta("event")) return {};
  try { return (await getJSON("/api/event/settings")).settings || {}; } catch (e) { return {}; }
}
const hasOption = (select, value) => [...select.options].some((o) => o.value === String(value));
// a new report's header lines from the event's settings (the judge may change each for this
// report); a value the select does not offer is left as it is
function prefill() {
  const e = B.event;
  for (const [id, value] of [["#b-rel", e.rel], ["#b-round", e.round], ["#b-round-kind", e.round_kind],
    ["#b-day", e.day]]) {
    if (value !== null && value !== undefined && hasOption($(id), value)) $(id).value = String(value);
  }
}
// where the report's policy is not the event's, the builder says so
function notePolicy() {
  const note = $("#b-policy-note");
  const other = B.event.policy && $("#b-policy").value !== B.event.policy;
  note.hidden = !other;
  note.textContent = other
    ? `This report is ruled under ${$("#b-policy").value}; the event's policy is ${B.event.policy}.` : "";
}

export async function initBuilder() {
  const [v, settings] = await Promise.all([getJSON("/api/vocab"), eventSettings()]);
  B.vocab = v;
  B.event = settings;
  B.keywords = new Set(v.keywords);
  options($("#b-rel"), v.values.rel, "(not given)");
  options($("#b-round-kind"), v.values.round_kind, "–");
  for (const select of document.querySelectorAll("select.num")) {
    const [lo, hi] = v.header_ranges[select.dataset.range] || [1, 20];
    numberOptions(select, Math.max(lo, select.id === "b-minutes" ? 0 : 1), hi, select.id !== "b-when-n");
  }
  const when = $("#b-when");
  for (const w of v.when) when.append(el("option", { value: w.kind, text: w.text.replace(/\{\w+\}/, "N") }));
  for (const id of ["#b-rel", "#b-round", "#b-round-kind", "#b-day", "#b-when", "#b-when-n", "#b-minutes",
    "#b-call-infraction", "#b-call-penalty"]) $(id).addEventListener("change", build);
  // a fresh page: the event's policy, else the one this judge chose last
  const policy = B.event.policy || saved.get("policy");
  if (policy && hasOption($("#b-policy"), policy)) $("#b-policy").value = policy;
  prefill();
  $("#b-policy").addEventListener("change", () => {
    saved.set("policy", $("#b-policy").value);
    B.pickedOver = $("#report").value;        // (a late reading of this text must not undo the pick)
    loadPolicy(true);
  });
  // a report typed or edited under another policy: the builder's select shows it, and its
  // forms are that policy's (what the judge typed is kept: loadPolicy writes only its own text)
  // (only a text the judge wrote, still the one in the box: the builder's own follows its select)
  document.addEventListener("report-policy", (e) => {
    const { policy, text } = e.detail;
    if (text !== $("#report").value || text === B.built || text === B.pickedOver) return;
    if (!policy || policy === $("#b-policy").value || ![...$("#b-policy").options].some((o) => o.value === policy)) return;
    $("#b-policy").value = policy;
    notePolicy();
    loadPolicy(false);
  });
  $("#b-player-add").addEventListener("click", () => addPlayer($("#b-player-name").value));
  $("#b-spectator-add").addEventListener("click", () => addPlayer($("#b-player-name").value, "spectator"));
  $("#b-table").addEventListener("input", build);
  $("#b-player-name").addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); addPlayer($("#b-player-name").value); }
  });
  $("#b-obs-search").addEventListener("input", listObservations);
  document.addEventListener("unread-sentence", (e) => offerSearch(e.detail.text, e.detail.box));
  $("#b-state-add").addEventListener("change", pickState);
  await loadPolicy(false);
  if (meta("event")) loadRoster();
}

// byUser: the judge picked a policy in the builder.  Otherwise (the page loading) a report the
// judge has typed meanwhile is kept: the builder writes only over its own text.
async function loadPolicy(byUser) {
  const policy = encodeURIComponent($("#b-policy").value);
  B.search = {};
  // what the search finds each form by (infraction names, initials, sections) and its default
  // numbers: the pack's rulings, a second or two the first time a pack is asked; the list is
  // searched by its words meanwhile, and a form picked meanwhile waits for its numbers
  let done;
  B.searching = new Promise((resolve) => { done = resolve; });
  getJSON("/api/policies/" + policy + "/search").then((found) => {
    if (found.id === $("#b-policy").value) { B.search = found.observations; if (B.policy) listObservations(); }
  }).catch(() => { /* the words alone are searched */ }).finally(() => done());
  // a load overtaken by a later choice of policy (the page's first, answering late) sets nothing
  const seq = ++B.loads;
  const [reference, vocab] = await Promise.all([getJSON("/api/policies/" + policy),
    getJSON("/api/vocab?policy=" + policy)]);                  // core's forms and the pack's own
  if (seq !== B.loads) return;
  B.policy = reference;
  B.vocab = vocab;
  B.keywords = new Set(B.vocab.keywords);
  // the policy's own round kinds (Yu-Gi-Oh's `top`): the kind chosen is kept, else the event's
  const kind = $("#b-round-kind").value || B.event.round_kind || "";
  options($("#b-round-kind"), B.vocab.values.round_kind || [], "–");
  if (hasOption($("#b-round-kind"), kind)) $("#b-round-kind").value = kind;
  options($("#b-call-infraction"), B.policy.infractions.map((i) => i.id), "(none)");
  options($("#b-call-penalty"), B.policy.penalties.filter((p) => p !== "none"), "–");
  listObservations();
  renderObservations();
  const kinds = new Set(B.vocab.states.map((f) => f.kind));
  B.states = B.states.filter((st) => kinds.has(st.form.kind));
  listStates();
  renderStates();
  const typed = $("#report").value.trim() !== "" && $("#report").value !== B.built;
  if (byUser || !typed) build();
}

export async function loadRoster() {
  try {
    const record = await getJSON("/api/event");
    const box = $("#b-roster");
    box.textContent = "";
    if (record.roster.length) box.append(el("span", { class: "hint", text: "At this event: " }));
    for (const name of record.roster) {
      box.append(el("button", { type: "button", class: "chip", "data-name": name, text: name,
        onclick: () => addPlayer(name) }));
    }
  } catch (e) { /* an event that cannot be read shows no roster */ }
}

function addPlayer(raw, role = "player") {
  const name = raw.trim();
  if (!name || persons().includes(name)) return;
  (role === "spectator" ? B.spectators : B.players).push(name);
  $("#b-player-name").value = "";
  for (const o of [...B.observations, ...B.states]) {
    for (const slot of ["P", "Q"]) if (!o.values[slot]) o.values[slot] = defaultPerson(o, slot);
  }
  renderPlayers();
  renderObservations();
  renderStates();
  build();
}
function renderPlayers() {
  const box = $("#b-players");
  box.textContent = "";
  const chip = (name, role) => el("span", { class: `chip on ${role}-chip`, "data-name": name },
    role === "spectator" ? el("small", { class: "role", text: "spectator " }) : "", name,
    el("button", { type: "button", class: "x", "aria-label": "remove " + name, text: "×",
      onclick: () => {
        B.players = B.players.filter((p) => p !== name);
        B.spectators = B.spectators.filter((p) => p !== name);
        renderPlayers(); renderObservations(); renderStates(); build();
      } }));
  for (const name of B.players) box.append(chip(name, "player"));
  for (const name of B.spectators) box.append(chip(name, "spectator"));
}
function defaultPerson(o, slot) {
  if (slot === "P") return B.players[0] || B.spectators[0] || "";
  return persons().find((p) => p !== o.values.P) || "";
}

// a form's words, and what the pack rules it as: its infractions' words, initials and sections
// (`hidden`, `HCE`, `2.5`); then the words of what one more modifier makes it and of the
// modifiers its rules read (`mixed`), and the words the reader takes for it (`pocketed`)
function searchWords(o) {
  const found = B.search[o.kind] || { infractions: [], with_more: [] };
  const named = (list) => list.flatMap((i) => [i.id, i.words, i.section, ...i.initials.map((x) => "#" + x)]);
  const read = (B.policy.modifiers_read || {})[o.kind] || [];
  const mods = B.vocab.modifiers.filter((m) => read.includes(m.kind)).flatMap((m) => [m.text, ...m.synonyms]);
  return {
    first: [o.text, ...o.synonyms, o.kind.replaceAll("_", " "), ...named(found.infractions)].join(" ").toLowerCase(),
    then: [...named(found.with_more), ...mods, ...(o.words || [])].join(" ").toLowerCase(),
  };
}
function matches(words, query) {
  // every word typed is found: a word of letters alone is also an infraction's initials (HCE)
  return query.split(/\s+/).every((w) => words.includes(w) || (/^[a-z]{2,5}$/.test(w) && words.includes("#" + w)));
}
function infractionsLine(o) {
  const found = B.search[o.kind];
  if (!found || !found.infractions.length) return "";
  return "→ " + found.infractions.map((i) => `${i.words} (${i.section})`).join("; ");
}
function listObservations() {
  const q = $("#b-obs-search").value.trim().toLowerCase();
  const list = $("#b-obs-list");
  list.textContent = "";
  let hits = B.vocab.observations;
  if (q) {
    const words = hits.map((o) => [o, searchWords(o)]);
    hits = [...words.filter(([, w]) => matches(w.first, q)).map(([o]) => o),
      ...words.filter(([, w]) => !matches(w.first, q) && matches(w.then, q)).map(([o]) => o)];
  }
  for (const o of hits.slice(0, q ? 40 : 12)) {
    const also = infractionsLine(o);
    list.append(el("li", {}, el("button", { type: "button", class: "pick", "data-kind": o.kind,
      onclick: () => addObservation(o) },
      el("span", { text: o.text.replace("{P}", "…").replace("{Q}", "…").replace(/\{\w+\}/g, "N") }),
      also ? el("small", { class: "leads-to", text: also }) : "")));
  }
  if (q && !hits.length) list.append(el("li", { class: "hint", text: "nothing found: try another word, an infraction or a section (2.5)" }));
  if (!q && hits.length > 12) list.append(el("li", { class: "hint", text: `${hits.length - 12} more: search` }));
}

// a sentence the reader cannot read (a judge's own note): the words of it the search knows,
// fewest hits first, each a tap that searches "What happened" for it; a word most forms
// share (`cards`) finds nothing worth a tap
function offerSearch(text, box) {
  if (!B.policy) return;
  const names = new Set(persons().map((n) => n.toLowerCase()));
  const filler = new Set(["should", "would", "could", "have", "were", "been", "with", "from", "that", "this", "there"]);
  const words = [...new Set(text.toLowerCase().match(/[a-z]{4,}/g) || [])].filter((w) => !names.has(w) && !filler.has(w));
  const all = B.vocab.observations.map(searchWords);
  const found = words.map((w) => [w, all.filter((s) => matches(s.first, w) || matches(s.then, w)).length])
    .filter(([, n]) => n > 0 && n <= all.length / 4).sort((a, b) => a[1] - b[1]).slice(0, 3);
  if (!found.length) return;
  const row = el("div", { class: "search-words" },
    el("span", { text: "The station does not read this sentence: pick what happened above. Search for:" }));
  for (const [w] of found) {
    row.append(el("button", { type: "button", class: "search-word", text: w, onclick: () => {
      $("#b-obs-search").value = w;
      listObservations();
      $("#b-obs-search").scrollIntoView({ block: "start" });
    } }));
  }
  box.append(row);
}

async function addObservation(form) {
  // its default numbers, if the pack's rulings come within a few seconds (else it asks for them)
  await Promise.race([B.searching, new Promise((resolve) => { setTimeout(resolve, 4000); })]);
  const o = { form, values: {}, mods: [], showAll: false };
  // numbers: the first the pack rules as an infraction; none known: empty, and the card asks
  const defaults = (B.search[form.kind] || {}).defaults || {};
  for (const slot of form.slots) {
    if (slot === "P" || slot === "Q") o.values[slot] = defaultPerson(o, slot);
    else o.values[slot] = defaults[slot] !== undefined ? String(defaults[slot]) : "";
  }
  B.observations.push(o);
  $("#b-obs-search").value = "";
  listObservations();
  renderObservations();
  build();
}

function slotControl(slot, value, onchange) {
  const select = el("select", { "data-slot": slot, "aria-label": slot });
  if (slot === "P" || slot === "Q") {
    options(select, persons(), persons().length ? undefined : "(add a player)");
  } else {
    const [lo, hi] = B.vocab.count_ranges[slot] || [0, 60];
    numberOptions(select, lo, hi, false);
    if (value === "") {
      select.prepend(el("option", { value: "", text: `${slot}?` }));
      select.setAttribute("aria-invalid", "true");
    }
  }
  select.value = value;
  select.addEventListener("change", () => { onchange(select.value); build(); });
  return select;
}

function formLine(text, values, onslot) {
  // the form's words, each {slot} a select
  const line = el("div", { class: "form-line" });
  for (const part of text.split(/(\{\w+\})/)) {
    const m = part.match(/^\{(\w+)\}$/);
    if (m) line.append(slotControl(m[1], values[m[1]], (v) => onslot(m[1], v)));
    else if (part) line.append(el("span", { text: part }));
  }
  return line;
}

// a modifier's words as a chip or a choice says them
const modText = (m) => m.text.replace("{Q}", "…").replace(/\{\w+\}/g, "N");

function renderObservations() {
  const box = $("#b-observations");
  box.textContent = "";
  B.observations.forEach((o, index) => {
    const read = new Set((B.policy.modifiers_read || {})[o.form.kind] || []);
    const card = el("div", { class: "obs", "data-kind": o.form.kind });
    card.append(formLine(o.form.text, o.values, (slot, v) => { o.values[slot] = v; }));
    if (o.form.slots.some((slot) => o.values[slot] === "")) {
      card.append(el("p", { class: "hint ask", text: "choose the numbers" }));
    }
    card.append(el("button", { type: "button", class: "x remove-obs", "aria-label": "remove observation",
      text: "×", onclick: () => { B.observations.splice(index, 1); renderObservations(); build(); } }));
    const mods = B.vocab.modifiers;
    // first the modifiers the rules about it read (a group: one choice); under "more", those the
    // rules about the observations ruled as the same infractions read, the other groups, and
    // every other modifier folded once more
    // (a group one of whose members was chosen comes first whole: its choice is shown once)
    const chosen = new Set(o.mods.map((s) => s.kind));
    const readGroups = new Set(mods.filter((m) => (read.has(m.kind) || chosen.has(m.kind)) && m.group).map((m) => m.group));
    const isFirst = (m) => read.has(m.kind) || readGroups.has(m.group) || chosen.has(m.kind);
    const first = mods.filter(isFirst);
    card.append(el("p", { class: "hint", text: first.length ? `what ${$("#b-policy").value}'s rules about it ask:` : "add what applies:" }),
      modifierControls(o, first, read));
    // a chosen modifier's own blanks (`caught before [Lee]'s next action`) under the choices, above "more"
    for (const sel of o.mods) {
      const form = mods.find((m) => m.kind === sel.kind);
      if (form.slots.length) {
        card.append(formLine(form.text, sel.values, (slot, v) => { sel.values[slot] = v; }));
      }
    }
    const near = related(o.form.kind);
    const rest = mods.filter((m) => !isFirst(m));
    if (rest.length) {
      const more = el("details", { class: "more-mods" }, el("summary", { text: `more (${rest.length})` }));
      if (o.showAll) more.open = true;
      more.addEventListener("toggle", () => { o.showAll = more.open; });
      const grouped = rest.filter((m) => m.group || near.has(m.kind));
      const others = rest.filter((m) => !m.group && !near.has(m.kind));
      more.append(modifierControls(o, grouped, read));
      if (others.length) {
        const all = el("details", { class: "more-mods all-mods" }, el("summary", { text: `every other modifier (${others.length})` }));
        all.append(modifierControls(o, others, read));
        more.append(all);
      }
      card.append(more);
    }
    box.append(card);
  });
}

// the modifiers the rules about the observations ruled as the same infractions read
// (`mixed into her hand`, read of an opt's cards, for a draw above intellect: PPG 2.5)
function related(kind) {
  const ids = (k) => {
    const found = B.search[k] || { infractions: [], with_more: [] };
    return new Set([...found.infractions, ...found.with_more].map((i) => i.id));
  };
  // (what it is ruled as; one more modifier's infractions only where it is ruled as none)
  const own = B.search[kind] || { infractions: [], with_more: [] };
  const mine = new Set((own.infractions.length ? own.infractions : own.with_more).map((i) => i.id));
  const out = new Set();
  for (const [other, read] of Object.entries(B.policy.modifiers_read || {})) {
    if (other === kind || ![...ids(other)].some((i) => mine.has(i))) continue;
    for (const m of read) out.add(m.split("@")[0]);
  }
  return out;
}

// the modifiers as controls: each exclusive group one choice (a select: `caught: at once /
// before …'s next action / later`), the others chips
function modifierControls(o, mods, read) {
  const box = el("div", { class: "mods" });
  const groups = new Map();
  for (const m of mods) if (m.group) groups.set(m.group, [...(groups.get(m.group) || []), m]);
  for (const [group, members] of groups) {
    const name = group.replaceAll("_", " ");
    const select = el("select", { class: "choice" + (members.some((m) => read.has(m.kind)) ? " read" : ""),
      "data-group": group, "aria-label": name });
    select.append(el("option", { value: "", text: `${name}: –` }));
    for (const m of members) select.append(el("option", { value: m.kind, text: `${name}: ${modText(m)}` }));
    const chosen = o.mods.find((s) => members.some((m) => m.kind === s.kind));
    select.value = chosen ? chosen.kind : "";
    select.addEventListener("change", () => {
      const m = members.find((x) => x.kind === select.value);
      if (m) toggleMod(o, m);
      else { o.mods = o.mods.filter((s) => !members.some((x) => x.kind === s.kind)); renderObservations(); build(); }
    });
    box.append(select);
  }
  const chips = el("div", { class: "chips" });
  for (const m of mods) if (!m.group) chips.append(modChip(o, m, read.has(m.kind)));
  box.append(chips);
  return box;
}

function modChip(o, m, read) {
  const on = o.mods.some((s) => s.kind === m.kind);
  return el("button", { type: "button", class: "chip" + (on ? " on" : "") + (read ? " read" : ""),
    "data-modifier": m.kind, "aria-pressed": String(on), text: modText(m),
    onclick: () => toggleMod(o, m) });
}

function toggleMod(o, m) {
  if (o.mods.some((s) => s.kind === m.kind)) {
    o.mods = o.mods.filter((s) => s.kind !== m.kind);
  } else {
    if (m.group) o.mods = o.mods.filter((s) => {
      const f = B.vocab.modifiers.find((x) => x.kind === s.kind);
      return f.group !== m.group;
    });
    const values = {};
    for (const slot of m.slots) {
      values[slot] = slot === "Q" ? (persons().find((p) => p !== o.values.P) || persons()[0] || "")
        : String(Math.max(1, (B.vocab.count_ranges[slot] || [1])[0]));
    }
    o.mods.push({ kind: m.kind, values });
  }
  renderObservations();
  build();
}

// --- the state of the match: statements (time called, a concession) and tallies -------------
function listStates() {
  // one picker (a phone's native list): the statements, then the tallies
  const select = $("#b-state-add");
  options(select, [], "add…");
  const said = el("optgroup", { label: "what happened in the match" });
  for (const form of B.vocab.states) {
    said.append(el("option", { value: "state:" + form.kind, text: form.text.replace(/\{[PQ]\}/g, "…") }));
  }
  const counted = el("optgroup", { label: "each player's" });
  for (const tally of B.vocab.tallies) counted.append(el("option", { value: "tally:" + tally.kind, text: tally.kind }));
  select.append(said, counted);
}
function pickState() {
  const [what, kind] = $("#b-state-add").value.split(":");
  $("#b-state-add").value = "";
  if (what === "state") addState(B.vocab.states.find((f) => f.kind === kind));
  if (what === "tally") addTally(B.vocab.tallies.find((t) => t.kind === kind));
}
function addState(form) {
  const s = { form, values: {} };
  for (const slot of form.slots) s.values[slot] = defaultPerson(s, slot);
  B.states.push(s);
  renderStates();
  build();
}
function addTally(tally) {
  if (B.tallies.some((t) => t.tally.kind === tally.kind)) return;
  B.tallies.push({ tally, values: {} });
  renderStates();
  build();
}
function renderStates() {
  const box = $("#b-states");
  box.textContent = "";
  B.states.forEach((s, index) => {
    const card = el("div", { class: "obs state", "data-state": s.form.kind });
    card.append(formLine(s.form.text, s.values, (slot, v) => { s.values[slot] = v; }));
    card.append(el("button", { type: "button", class: "x remove-obs", "aria-label": "remove state", text: "×",
      onclick: () => { B.states.splice(index, 1); renderStates(); build(); } }));
    box.append(card);
  });
  B.tallies.forEach((t, index) => {
    const [lo, hi] = t.tally.range || [0, 99];
    const card = el("div", { class: "obs tally", "data-tally": t.tally.kind },
      el("span", { text: `${t.tally.kind}: ` }));
    for (const name of B.players) {
      if (t.values[name] === undefined) t.values[name] = String(lo);
      const input = el("input", { type: "number", inputmode: "numeric", min: String(lo), max: String(hi),
        value: t.values[name], "aria-label": `${t.tally.kind} of ${name}`, "data-player": name });
      input.addEventListener("input", () => { t.values[name] = input.value; build(); });
      card.append(el("label", { class: "tally-value" }, name + " ", input));
    }
    if (!B.players.length) card.append(el("span", { class: "hint", text: "(add the players)" }));
    card.append(el("button", { type: "button", class: "x remove-obs", "aria-label": "remove " + t.tally.kind,
      text: "×", onclick: () => { B.tallies.splice(index, 1); renderStates(); build(); } }));
    box.append(card);
  });
}
function stateLines() {
  const lines = B.states.map((s) => fill(s.form.text, quoted(s.values)));
  for (const t of B.tallies) {
    if (B.players.length) lines.push(`${t.tally.kind}: ` + B.players.map((p) => `${quoteName(p)} ${t.values[p] ?? 0}`).join(", "));
  }
  return lines;
}

function observationText(o) {
  const parts = [fill(o.form.text, quoted(o.values))];
  for (const sel of o.mods) {
    const form = B.vocab.modifiers.find((m) => m.kind === sel.kind);
    parts.push(fill(form.text, quoted(sel.values)));
  }
  return parts.join(", ");
}

function build() {
  if (!B.vocab) return;
  notePolicy();
  const lines = [`policy: ${$("#b-policy").value}`];
  const val = (id) => $(id).value;
  if (val("#b-rel")) lines.push(`rel: ${val("#b-rel")}`);
  if (val("#b-round")) lines.push(`round: ${val("#b-round")}` + (val("#b-round-kind") ? `, ${val("#b-round-kind")}` : ""));
  if (val("#b-day")) lines.push(`day: ${val("#b-day")}`);
  const table = $("#b-table").value.trim();
  const tableOk = /^[0-9]{1,4}$/.test(table) && Number(table) >= 1;
  $("#b-table-hint").hidden = !table || tableOk;
  $("#b-table").setAttribute("aria-invalid", String(Boolean(table) && !tableOk));
  if (tableOk) lines.push(`table: ${Number(table)}`);
  if (val("#b-when")) {
    const w = B.vocab.when.find((x) => x.kind === val("#b-when"));
    lines.push(`when: ${w.text.replace(/\{\w+\}/, val("#b-when-n") || "1")}`);
  }
  for (const p of B.players) lines.push(`player: ${quoteName(p)}`);
  for (const p of B.spectators) lines.push(`spectator: ${quoteName(p)}`);
  for (const o of B.observations) lines.push(observationText(o));
  lines.push(...stateLines());
  if (val("#b-minutes")) lines.push(singular(`the ruling took ${val("#b-minutes")} minutes`));
  if (val("#b-call-infraction") && val("#b-call-penalty")) {
    lines.push(`judge call: ${val("#b-call-infraction")}, ${val("#b-call-penalty")}`);
  }
  const before = $("#report").value;
  const typed = before.trim() !== "" && before !== B.built;
  $("#report").value = B.built = lines.join("\n") + "\n";
  if (typed && before !== B.built) offerUndo(before);
  onText();
}

// the builder writes the whole box: what the judge typed there (a note, a line of their own)
// is not lost without a word; a bar at the screen's foot (the box may be a screen below the
// control tapped) puts it back
function offerUndo(typed) {
  let bar = $("#report-undo");
  if (!bar) {
    bar = el("div", { id: "report-undo", class: "toast", role: "status" });
    $("main").append(bar);
  }
  bar.replaceChildren(el("span", { text: "The builder rewrote the report box over what you typed." }),
    el("button", { type: "button", class: "primary", text: "Put back what you typed", onclick: () => {
      $("#report").value = typed;
      onText();
      bar.hidden = true;
    } }),
    el("button", { type: "button", class: "link", text: "Dismiss", onclick: () => { bar.hidden = true; } }));
  bar.hidden = false;
}

// a new report: the builder's observations and match state cleared, the players and the table
// kept, the header lines the event's settings give prefilled again (the Head Judge may have
// changed them: the next round)
export async function resetBuilder() {
  B.event = await eventSettings();
  B.observations = [];
  B.states = [];
  B.tallies = [];
  prefill();
  const policy = B.event.policy;
  if (policy && policy !== $("#b-policy").value && hasOption($("#b-policy"), policy)) {
    $("#b-policy").value = policy;
    await loadPolicy(true);         // (its forms; it writes the report)
    return;
  }
  renderObservations();
  renderStates();
  build();
}
