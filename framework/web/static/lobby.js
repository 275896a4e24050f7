// tapete's lobby: a form built from each variant's declared options; the server checks every field
// with the same parser as `tapete play --option` and says what is wrong next to it.
"use strict";

const $ = (id) => document.getElementById(id);
let catalogue = [];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function current() {
  return catalogue.find((v) => v.name === $("variant").value);
}

function optionField(o) {
  const f = el("div", "field");
  const label = el("label", "", o.name);
  label.htmlFor = `opt-${o.name}`;
  let input;
  if (o.type === "choice") {
    input = el("select");
    for (const c of o.choices) input.append(new Option(c, c, false, String(o.default) === c));
  } else if (o.type === "bool") {
    input = el("select");
    for (const c of ["true", "false"]) input.append(new Option(c, c, false, String(o.default) === c));
  } else {
    input = el("input");
    input.type = "text";
    input.value = String(o.default);
    input.inputMode = o.type === "int" ? "numeric" : "text";
  }
  input.id = `opt-${o.name}`;
  input.dataset.option = o.name;
  const err = el("span", "error hidden");
  err.dataset.error = `options.${o.name}`;
  const range = o.type === "int" && (o.min !== null || o.max !== null) ? ` (${o.min ?? ""}–${o.max ?? ""})` : "";
  f.append(label, input, el("span", "doc", o.doc + range), err);
  return f;
}

function seatRow(i, v) {
  const row = el("div", "seat-row");
  row.append(el("span", "", `seat ${i}`));
  const who = el("select");
  who.dataset.seat = i;
  who.append(new Option("a person", "person"));
  for (const b of v.bots) who.append(new Option(`bot: ${b}`, b, false, i > 0 && b === v.default_bot));
  if (i === 0) who.value = "person";
  const params = el("input");
  params.placeholder = "bot parameters, e.g. iterations=200";
  params.dataset.params = i;
  params.classList.toggle("hidden", who.value === "person");
  who.onchange = () => params.classList.toggle("hidden", who.value === "person");
  const err = el("span", "error hidden");
  err.dataset.error = `seats.${i}`;
  row.append(who, params, err);
  return row;
}

function drawSeats() {
  const v = current();
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const row = seatRow(i, v);
    if (old[i]) { row.querySelector("select").value = old[i]; row.querySelector("input").classList.toggle("hidden", old[i] === "person"); }
    box.append(row);
  }
}

function drawVariant() {
  const v = current();
  $("summary").textContent = `${v.summary} · ${v.players[0] === v.players[1] ? v.players[0] : v.players.join("–")} players${v.teams ? `, ${v.teams} teams` : ""}`;
  $("options").replaceChildren(...(v.options.length ? v.options.map(optionField) : [el("div", "muted", "no options")]));
  const players = $("players");
  players.replaceChildren();
  for (let n = v.players[0]; n <= v.players[1]; n++) players.append(new Option(String(n), String(n), false, n === v.default_players));
  drawSeats();
  $("rules").textContent = "";
  $("rules").classList.add("hidden");
  clearErrors();
}

function clearErrors() {
  for (const e of document.querySelectorAll("[data-error]")) { e.textContent = ""; e.classList.add("hidden"); }
}

function showErrors(errors) {
  for (const [field, message] of Object.entries(errors)) {
    const e = document.querySelector(`[data-error="${CSS.escape(field)}"]`) || document.querySelector('[data-error=""]');
    e.textContent = message;
    e.classList.remove("hidden");
  }
}

async function create(ev) {
  ev.preventDefault();
  clearErrors();
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) options[input.dataset.option] = input.value;
  const seats = [...document.querySelectorAll("#seats .seat-row")].map((row) => {
    const who = row.querySelector("select").value;
    if (who === "person") return { kind: "person" };
    const params = row.querySelector("input").value.trim();
    return { kind: "bot", bot: params ? `${who}:${params}` : who };
  });
  const body = {
    variant: $("variant").value, options, players: Number($("players").value), seats,
    away_after: $("away_after").value, clock: $("clock").value, pace: $("pace").value,
  };
  const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const reply = await r.json();
  if (!r.ok) return showErrors(reply.errors || { "": "the table could not be opened" });
  const links = $("links");
  links.replaceChildren();
  const add = (label, link) => {
    const url = location.origin + link;
    const li = el("li");
    const a = el("a", "", url);
    a.href = url;
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    const copy = el("button", "", "copy");
    copy.type = "button";
    copy.onclick = () => navigator.clipboard && navigator.clipboard.writeText(url);
    li.append(el("strong", "", `${label}: `), a, " ", copy);
    li.dataset.link = label;
    links.append(li);
  };
  for (const s of reply.seats) add(`seat ${s.seat}`, s.link);
  add("spectators", reply.spectator);
  $("commitment").textContent = reply.commitment;
  $("created").classList.remove("hidden");
  $("created").scrollIntoView();
}

async function toggleRules() {
  const box = $("rules");
  box.classList.toggle("hidden");
  if (!box.textContent) {
    const [game, name] = $("variant").value.split("/");
    const r = await fetch(`/api/rules/${encodeURIComponent(game)}/${encodeURIComponent(name)}`);
    box.textContent = (await r.json()).lines.join("\n");
  }
}

async function drawBroken() {
  const r = await fetch("/api/tables");
  if (!r.ok) return;
  const { broken } = await r.json();
  $("broken").replaceChildren(...broken.map((t) => el("li", "", `table ${t.table} (${t.variant}): ${t.reason}`)));
  $("broken-panel").classList.toggle("hidden", !broken.length);
}

document.addEventListener("DOMContentLoaded", async () => {
  drawBroken();
  $("create").disabled = true;
  catalogue = await (await fetch("/api/variants")).json();
  $("loading").classList.add("hidden");
  $("create").disabled = false;
  const select = $("variant");
  for (const v of catalogue) select.append(new Option(`${v.name} — ${v.summary}`, v.name));
  select.onchange = drawVariant;
  $("players").onchange = drawSeats;
  $("rules-button").onclick = toggleRules;
  $("form").onsubmit = create;
  drawVariant();
  document.body.dataset.ready = "1";
});
