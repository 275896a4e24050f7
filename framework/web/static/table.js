// tapete's table page: draws what the server sends for this seat and sends back the moves clicked.
// The page knows nothing the server did not send it: every card, move and word comes from the
// seat's own view. The link's #fragment is the seat's token; it never leaves this page but to
// open the connection.
"use strict";

const token = decodeURIComponent(location.hash.slice(1));
const $ = (id) => document.getElementById(id);
let ws = null;
let state = null;
let seat = null;
let retry = 0;
let stopped = false;
let hinted = null;
let panels = { rules: false, sheet: false, log: false };
let logLines = [];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function cardEl(card, tag) {
  const e = el(tag || "span", "card" + (card.r ? " red" : ""), card.c);
  e.dataset.card = card.c;
  return e;
}

// A meld (the layout's cards between "[" and "]") is drawn as a fan of overlapping cards.
function tokensEl(tokens, marked, grid) {
  const frag = document.createDocumentFragment();
  let into = frag;
  for (const t of tokens) {
    if (t === "[" && into === frag) { into = el("span", "fan"); frag.append(into); continue; }
    if (t === "]" && into !== frag) { into = frag; continue; }
    if (into !== frag && t && typeof t === "object") { into.append(cardEl(t)); continue; }
    if (t === null) frag.append(el("span", "slot", "·"));
    else if (typeof t === "string") frag.append(el("span", grid ? "rank" : "word", grid ? t.trim() : t));
    else {
      const c = cardEl(t);
      if (marked && marked.includes(t.c)) c.classList.add("marked");
      frag.append(c);
    }
  }
  return frag;
}

// The terminal marks cards with a star and its layouts explain it in the note, "(* in a meld)";
// the page outlines those cards instead, so the explanation becomes their tooltip, not words.
function starLegend(note) {
  const m = /\s*\(\* ([^)]*)\)/.exec(note || "");
  return m ? [(note.slice(0, m.index) + note.slice(m.index + m[0].length)).trim(), m[1]] : [note || "", ""];
}

// The places around the table, counted from the bottom (this page's seat) in the direction of play:
// the seat to play next sits at the left, then on round the table to the right.
const CELLS = ["you", "bl", "left", "tl", "top", "tr", "right", "br"];

function cellOf(at, players) {
  if (at === 0) return "you";
  return CELLS[Math.min(7, Math.max(1, Math.round((at * 8) / players)))];
}

function seatEl(p, s) {
  let who = p.who === "person" ? "person" : `${p.who} bot`;
  if (p.away) who = `away: the ${p.stand_in} bot plays`;
  else if (p.who === "person" && !p.here) who = "person, not here";
  const box = el("div", "seat" + (p.seat === s.to_move ? " turn" : "") + (p.you ? " you" : ""));
  box.dataset.seat = p.seat;
  box.dataset.at = p.at;
  const name = el("div", "name", p.you ? `you (seat ${p.seat})` : `seat ${p.seat}`);
  if (p.seat === s.to_move) name.append(el("span", "badge", "to move"));
  box.append(name, el("div", "who", who + (p.out ? ", out" : "") + (s.phase === "deal-over" && p.ready ? ", ready" : "")));
  if (p.facts && p.facts.length) box.append(el("div", "facts", p.facts.join(" · ")));
  if (p.last && p.last.length) {
    // What the seat did last in this deal (the card it discarded, the capture it made), until its next move.
    const last = el("div", "lastmove");
    last.append(el("span", "muted", "last: "), tokensEl(p.last));
    box.append(last);
  }
  return box;
}

function renderSeats(s) {
  const felt = $("felt");
  for (const c of felt.querySelectorAll(".cell")) c.remove();
  const cells = {};
  for (const name of CELLS) {
    cells[name] = el("div", "cell");
    cells[name].dataset.cell = name;
  }
  const trick = $("trick");
  const spots = {};
  for (const name of CELLS) { spots[name] = el("div", "spot"); spots[name].dataset.cell = name; }
  let played = 0;
  for (const p of s.seats) {
    const at = p.at === undefined ? p.seat : p.at;
    const cell = cellOf(at, s.seats.length);
    cells[cell].append(seatEl(p, s));
    if (p.played && p.played.length) {
      // The trick in the middle: each seat's card on the side of the table it sits.
      const spot = el("div", "played");
      spot.dataset.seat = p.seat;
      spot.append(tokensEl(p.played), el("div", "muted", p.you ? "you" : `seat ${p.seat}`));
      spots[cell].append(spot);
      played += 1;
    }
  }
  felt.append(...CELLS.map((n) => cells[n]).filter((c) => c.children.length));
  trick.replaceChildren(...CELLS.map((n) => spots[n]));
  trick.classList.toggle("hidden", !played);
  // Cards no longer in play (the last trick, until the next is led) are drawn faded, with who took them.
  trick.classList.toggle("done", Boolean(s.middle));
  const note = el("div", "middle-note", s.middle || "");
  note.id = "middle-note";
  trick.append(note);
}

function rowEl(row) {
  const r = el("div", "row" + (row.grid ? " grid" : ""));
  if (row.grid) r.style.setProperty("--cols", String(row.cards.length || 1));
  r.append(el("span", "label", row.label || ""));
  r.append(tokensEl(row.cards, row.marked, row.grid));
  if (row.note) r.append(el("span", "note", row.note));
  return r;
}

function setStatus(text, live) {
  const s = $("status");
  s.textContent = text;
  s.className = live ? "live" : "";
}

function notice(text, kind) {
  const n = $("notice");
  n.textContent = text || "";
  n.className = kind || "";
}

function connect() {
  if (!token) {
    $("title").textContent = "this page needs a seat's link (…/play#token)";
    return;
  }
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // The link's token begins with its table's id: a front or proxy sends the page to the process that plays it.
  const dot = token.indexOf(".");
  const route = dot > 0 ? `?table=${encodeURIComponent(token.slice(0, dot))}` : "";
  ws = new WebSocket(`${proto}//${location.host}/ws${route}`);
  setStatus("connecting");
  ws.onopen = () => {
    retry = 0;
    ws.send(JSON.stringify({ type: "hello", token }));
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    setStatus("disconnected: reconnecting");
    if (stopped) return;
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * retry);
  };
}

function send(obj) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj));
}

function onMessage(msg) {
  if (msg.type === "welcome") {
    seat = msg.seat;
    setStatus(seat < 0 ? "watching" : `seat ${seat}`, true);
    $("chat-form").classList.toggle("hidden", seat < 0);
  } else if (msg.type === "state") {
    state = msg;
    render();
  } else if (msg.type === "change") {
    // Only what changed since the state this page holds: the rest stays as it is.
    if (!state) return;
    const { patch, ...keys } = msg;
    state = Object.assign({}, state, keys, { type: "state" });
    for (const [key, items] of Object.entries(patch || {})) {
      const list = state[key].slice();
      for (const [i, item] of Object.entries(items)) list[Number(i)] = item;
      state[key] = list;
    }
    render();
  } else if (msg.type === "refused") {
    notice("refused: " + msg.message, "refused");
    enable(true);
  } else if (msg.type === "error") {
    if (msg.code === "bad-token" || msg.code === "broken") {
      stopped = true;
      $("title").textContent = msg.message;
      setStatus("no seat");
      return;
    }
    if (msg.code !== "already-played") notice(msg.message, "refused");
    $("again").disabled = false;
    enable(true);
  } else if (msg.type === "rematch") {
    // The new table's link for this page's own seat, sent over this page's connection only.
    rematchLink = msg.link;
    if (askedRematch) return openRematch();
    const again = $("again");
    again.textContent = seat < 0 ? "Watch the new table" : "Join the new table";
    again.classList.remove("hidden");
  } else if (msg.type === "chat") {
    // Plain text, drawn as text (never as markup); the spectators read it and do not write.
    const box = $("chat-lines");
    for (const line of msg.lines) {
      const li = el("li");
      li.append(el("strong", "", line.seat === seat ? "you: " : `seat ${line.seat}: `), document.createTextNode(line.text));
      box.append(li);
    }
    while (box.children.length > 50) box.firstChild.remove();
  } else if (msg.type === "log") {
    logLines = msg.lines;
    renderLog();
  } else if (msg.type === "hint") {
    hinted = msg.move;
    notice(`hint: ${msg.move} — ${msg.why}`, "hint");
    markHint();
  }
}

let rematchLink = null;
let askedRematch = false;

function openRematch() {
  location.hash = rematchLink.split("#")[1];
  location.reload();
}

function playAgain() {
  if (rematchLink) return openRematch();
  askedRematch = true;
  $("again").disabled = true;
  send({ type: "rematch", seq: state ? state.seq : 0 });
}

function enable(on) {
  for (const b of document.querySelectorAll("#hand button, #moves button, #chooser button")) b.disabled = !on;
}

function play(move) {
  const m = state && state.moves.find((x) => x.text === move);
  if (m && m.confirm && m.confirm.length) return askConfirm(m);
  sendMove(move);
}

function sendMove(move) {
  $("chooser").classList.add("hidden");
  $("confirm").classList.add("hidden");
  notice("");
  enable(false);
  send({ type: "move", seq: state.seq, move });
}

// A line of words naming melds "[3♦ 4♦ 5♦]" (a close's confirmation, the deal's account): each meld
// whose cards this page was shown is drawn as a fan; the rest stays words.
function fannedLine(line, tag) {
  const faces = {};
  const known = [...(state.hand || []), ...(state.reveal ? state.reveal.hands.flatMap((h) => h.cards) : [])];
  for (const c of known) faces[c.c] = c;
  const box = el(tag || "div", "fanned");
  let at = 0;
  for (const m of line.matchAll(/\[([^\]]*)\]/g)) {
    const names = m[1].split(m[1].includes(",") ? /,\s*/ : /\s+/).filter(Boolean);
    if (!names.length || !names.every((n) => faces[n])) continue;
    box.append(document.createTextNode(line.slice(at, m.index)), tokensEl(["[", ...names.map((n) => faces[n]), "]"]));
    at = m.index + m[0].length;
  }
  box.append(document.createTextNode(line.slice(at)));
  return box;
}

function askConfirm(m) {
  const box = $("confirm");
  box.replaceChildren();
  for (const line of m.confirm) box.append(fannedLine(line));
  const yes = el("button", "primary", m.text);
  yes.dataset.confirm = m.text;
  yes.onclick = () => sendMove(m.text);
  const no = el("button", "", "not now");
  no.onclick = () => box.classList.add("hidden");
  box.append(yes, no);
  box.classList.remove("hidden");
}

// A card clicked: the one legal move it starts, a choice among several, or (none) the move the
// game will refuse in its own words.
function clickCard(name) {
  if (!state) return;
  const starting = state.moves.filter((m) => m.cards[0] === name);
  const plain = starting.filter((m) => m.kind === "play" || m.kind === "discard");
  if (starting.length === 1) return play(starting[0].text);
  if (starting.length > 1 && plain.length === 1 && starting.every((m) => m.cards.length === 1)) return play(plain[0].text);
  if (starting.length > 1) {
    const box = $("chooser");
    box.replaceChildren(el("span", "muted", `${name}: `));
    for (const m of starting) {
      const b = el("button", "", m.text);
      b.dataset.move = m.text;
      b.onclick = () => play(m.text);
      box.append(b);
    }
    box.classList.remove("hidden");
    return;
  }
  sendMove(`${state.card_move} ${name}`);
}

function markHint() {
  for (const c of document.querySelectorAll(".hinted")) c.classList.remove("hinted");
  if (!hinted) return;
  for (const b of document.querySelectorAll("#moves button")) if (b.dataset.move === hinted) b.classList.add("hinted");
  const first = state.moves.find((m) => m.text === hinted);
  if (first && first.cards[0])
    for (const c of document.querySelectorAll("#hand-cards .card")) if (c.dataset.card === first.cards[0]) c.classList.add("hinted");
}

function render() {
  const s = state;
  document.body.dataset.phase = s.phase;
  document.body.dataset.seq = s.seq;
  document.body.dataset.turn = s.moves.length ? "yours" : "";
  document.title = `tapete · ${s.variant} · ${s.title}`;
  $("title").textContent = s.title;
  hinted = null;

  renderSeats(s);
  $("scores").replaceChildren(...s.scores.map((line) => el("div", "", line)));

  const recap = $("recap");
  recap.replaceChildren(...s.recap.map((line) => { const li = el("li"); li.append(tokensEl(line)); return li; }));
  $("recap-panel").classList.toggle("hidden", s.seat < 0 || !s.recap.length);

  // A words-only row over a grid (Fan Tan's ranks over its suit rows) lines up with the grid.
  // The rows that only say what the seats around the table show (hand sizes, the trick) are left out.
  const rows = s.table.filter((r) => !(s.at_seats || []).includes(r.label));
  $("table").replaceChildren(...rows.map((r, i) => {
    const next = rows[i + 1];
    const header = !r.grid && next && next.grid && r.cards.length && r.cards.every((t) => typeof t === "string");
    return rowEl(header ? { ...r, grid: true } : r);
  }));
  // The card just played (the last move of the recap) is highlighted where it now lies on the table.
  const last = s.recap.length ? s.recap[s.recap.length - 1].filter((t) => t && typeof t === "object").map((t) => t.c) : [];
  for (const c of document.querySelectorAll("#table .card, #trick .card")) c.classList.toggle("last", last.includes(c.dataset.card));

  const hand = $("hand-cards");
  hand.replaceChildren();
  const marked = s.hand_rows.length ? s.hand_rows[0].marked : [];
  for (const c of s.hand) {
    const b = cardEl(c, "button");
    if (marked.includes(c.c)) b.classList.add("marked");
    b.onclick = () => clickCard(c.c);
    b.disabled = !s.moves.length;
    hand.append(b);
  }
  $("hand").classList.toggle("hidden", s.seat < 0);
  const handRows = $("hand-rows");
  handRows.replaceChildren();
  s.hand_rows.forEach((r, i) => {
    if (i === 0) {
      const [note, legend] = starLegend(r.note);
      if (note) handRows.append(el("div", "muted", note));
      if (legend) for (const b of hand.querySelectorAll(".marked")) b.title = legend;
      return;
    }
    handRows.append(rowEl(r));
  });
  $("chooser").classList.add("hidden");
  $("confirm").classList.add("hidden");

  const moves = $("moves");
  moves.replaceChildren();
  // A move of one card from the hand, of the kind a click on a card makes (play, pass, discard), is made
  // by clicking that card: thirteen "pass 2♠" buttons under thirteen cards would say the hand twice.
  const inHand = new Set(s.hand.map((c) => c.c));
  const byCard = (m) => m.cards.length === 1 && m.kind === s.card_move && inHand.has(m.cards[0]);
  for (const m of s.moves) {
    if (byCard(m)) continue;
    const b = el("button", m.cards.length ? "" : "primary", m.text);
    b.dataset.move = m.text;
    b.onclick = () => play(m.text);
    moves.append(b);
  }
  if (s.moves.length) notice("your move: click a card or a move", "");
  else if (s.phase === "play" && s.seat >= 0) notice(`waiting for seat ${s.to_move}`, "");
  else if (s.phase !== "play") notice("", "");

  const rev = $("reveal-panel");
  rev.classList.toggle("hidden", !s.reveal);
  if (s.reveal) {
    $("reveal").replaceChildren(...s.reveal.hands.map((h) => rowEl({ label: h.label, cards: h.cards, marked: [], note: h.cards.length ? "" : "no cards left" })));
    $("lines").replaceChildren(...s.reveal.lines.map((l) => fannedLine(l, "li")));
    const points = s.reveal.points || [];
    const signed = (v) => (v > 0 ? `+${v}` : String(v));
    $("points").textContent = points.length
      ? "this deal: " + s.seats.filter((p) => points[p.seat] !== null && points[p.seat] !== undefined)
        .map((p) => `${p.you ? "you" : `seat ${p.seat}`} ${signed(points[p.seat])}`).join(", ")
      : "";
    const me = s.seats.find((p) => p.you);
    const next = $("next");
    next.classList.toggle("hidden", !(s.phase === "deal-over" && me && !me.ready));
    next.disabled = false;
    $("waiting").textContent = s.phase === "deal-over" && s.waiting.length ? `waiting for seat ${s.waiting.join(", ")} to be ready` : "";
  }
  const res = $("result");
  res.classList.toggle("hidden", !s.result);
  $("again").classList.toggle("hidden", !(s.phase === "match-over" && (seat >= 0 || rematchLink)));
  if (s.result) res.textContent = `${s.title}. Totals: ${s.result.totals.join(", ")}`;
  if (s.broken) notice(s.broken, "refused");

  $("help").replaceChildren(...s.help.map((line) => el("div", "", line)));
  renderFair(s.fair);
  renderSheet();
  if (panels.log) send({ type: "log" });
  enable(true);
  for (const b of document.querySelectorAll("#hand-cards button")) b.disabled = !s.moves.length;
}

// The table's commitment to its seed, from the first state this page was shown; at the end the
// revealed seed and salt are checked against it here (the same recipe as tapete.web.fairness).
let firstCommitment = null;
let fairShown = "";

async function sha256hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function renderFair(f) {
  if (!f) return;
  if (firstCommitment === null) firstCommitment = f.commitment;
  const key = JSON.stringify(f);
  if (key === fairShown) return;
  fairShown = key;
  const box = $("fair");
  const parts = [el("div", "", "Deal commitment (SHA-256 of the secret seed and salt, fixed before the first card): "), el("code", "", f.commitment)];
  if (f.seed) {
    parts.push(el("div", "", `Revealed: seed ${f.seed}, salt ${f.salt}`));
    let verdict = "this browser cannot compute SHA-256 here (it needs https or localhost): check with tapete verify";
    if (window.crypto && crypto.subtle) {
      const got = await sha256hex(`tapete-deal/1\n${f.seed}\n${f.salt}`);
      verdict = got === firstCommitment
        ? "✓ the seed and salt give the commitment this page was shown from the start"
        : "✗ the seed and salt do NOT give the commitment this page was shown";
    }
    const v = el("div", "verdict", verdict);
    v.id = "fair-verdict";
    parts.push(v);
  }
  if (f.record) {
    const a = el("a", "", "Download the match record");
    a.href = f.record;
    a.id = "record";
    a.setAttribute("download", "");
    parts.push(el("div", "", ""), a, el("span", "", " — tapete verify RECORD replays every deal from the seed"));
  }
  box.replaceChildren(...parts);
}

function renderSheet() {
  const box = $("sheet");
  box.classList.toggle("hidden", !panels.sheet);
  if (!panels.sheet || !state) return;
  const t = el("table", "sheet");
  const head = el("tr");
  head.append(el("th", "", "deal"));
  state.seats.forEach((p) => head.append(el("th", "", p.you ? "you" : `seat ${p.seat}`)));
  t.append(head);
  for (const r of state.sheet) {
    const tr = el("tr");
    tr.append(el("td", "", String(r.deal)));
    if (r.void) { const td = el("td", "", "void"); td.colSpan = state.seats.length; tr.append(td); }
    else r.scores.forEach((v, i) => tr.append(el("td", "", v === null || v === undefined ? "–" : `${v} (${r.totals[i]})`)));
    t.append(tr);
  }
  box.replaceChildren(state.sheet.length ? t : el("div", "muted", "no deal scored yet"));
}

function renderLog() {
  const box = $("log");
  box.classList.toggle("hidden", !panels.log);
  if (!panels.log || !state) return;
  box.replaceChildren(...logLines.map((line) => { const li = el("li"); li.append(tokensEl(line)); return li; }));
}

async function toggleRules() {
  panels.rules = !panels.rules;
  const box = $("rules");
  box.classList.toggle("hidden", !panels.rules);
  if (panels.rules && state && !box.textContent) {
    const [game, name] = state.variant.split("/");
    const r = await fetch(`/api/rules/${encodeURIComponent(game)}/${encodeURIComponent(name)}`);
    box.textContent = (await r.json()).lines.join("\n");
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("hint").onclick = () => send({ type: "hint" });
  $("again").onclick = playAgain;
  $("chat-form").onsubmit = (ev) => {
    ev.preventDefault();
    const text = $("chat-text").value.trim();
    if (text) send({ type: "chat", text });
    $("chat-text").value = "";
  };
  $("show-rules").onclick = toggleRules;
  $("show-sheet").onclick = () => { panels.sheet = !panels.sheet; renderSheet(); };
  $("show-log").onclick = () => { panels.log = !panels.log; if (panels.log) send({ type: "log" }); renderLog(); };
  $("next").onclick = () => { $("next").disabled = true; send({ type: "next", seq: state.seq }); };
  connect();
});
window.addEventListener("hashchange", () => location.reload());
