// pjlab serve's page: it talks to the engine only through /api/v1 (see the README).
"use strict";

const $ = (id) => document.getElementById(id);
const S = {
  games: [], players: [], game: "pijersi", variant: null, start: null, moves: [],
  view: 0,           // how many of `moves` the board shows
  state: null,       // the server's answer for the position shown
  selection: [],     // cells clicked so far
  flipped: false, search: null, candidates: [], busy: false,
};

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch("/api/v1" + path, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function status(text, error) {
  const s = $("status");
  s.textContent = text;
  s.className = error ? "error" : "";
}

function where(moves) {
  const at = { game: S.game, moves };
  if (S.start !== null) at.position = S.start;
  if (S.variant) at.variant = S.variant;
  return at;
}

function spec() {
  return $("spec").value.trim() || $("player").value;
}

function humanSeat(seat) {
  const v = $("seat").value;
  return v === "all" || (v !== "none" && Number(v) === seat);
}

function atEnd() { return S.view === S.moves.length; }

// --- the position shown -------------------------------------------------------------------

// Shows position `view` of the game (and lets the engine move when the seat is its own).
// `data-busy` on the body is true while the page waits for the server (tests wait on it).
async function show(view) {
  document.body.dataset.busy = "true";
  try {
    S.view = Math.max(0, Math.min(view, S.moves.length));
    S.selection = [];
    const state = await api("/state", where(S.moves.slice(0, S.view)));
    S.state = state;
    if (S.start === null) S.start = state.start;
    draw();
    if (atEnd() && !state.over && !humanSeat(state.seat) && !S.search && S.mode === "play") {
      engineMove();
    }
  } finally {
    document.body.dataset.busy = "false";
  }
}

function draw() {
  const st = S.state;
  const board = $("board");
  board.innerHTML = st.svg || "<p>(this game has no picture)</p>";
  board.classList.toggle("flipped", S.flipped);
  markTargets();
  const list = $("moves");
  list.innerHTML = "";
  S.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    li.dataset.ply = String(i + 1);
    if (i + 1 === S.view) li.className = "current";
    li.onclick = () => show(i + 1);
    list.appendChild(li);
  });
  let words;
  if (st.over) words = st.result === "draw" ? "draw" : `${st.result} wins`;
  else words = `${st.side_to_move} to move` + (st.seats > 2 ? ` (seat ${st.seat})` : "") +
    (humanSeat(st.seat) ? ": your move" : "");
  status(`${S.game} · ply ${S.view}/${S.moves.length} · ${words}`);
  document.body.dataset.over = String(st.over);
  document.body.dataset.ply = String(S.view);
  document.body.dataset.seat = String(st.seat);
}

// The legal moves that begin with the cells clicked so far.
function candidates() {
  const sel = S.selection;
  return S.state.legal.filter((m) => sel.every((c, i) => m.cells[i] === c));
}

function markTargets() {
  const board = $("board");
  const cell = (c) => board.querySelector(`polygon.cell[data-cell="${c}"], rect.square[data-cell="${c}"]`);
  board.querySelectorAll("polygon.cell, rect.square").forEach((p) => p.classList.remove("target", "selected"));
  if (!S.state || S.state.over) return;
  const next = new Set();
  for (const m of candidates()) {
    if (m.cells.length > S.selection.length) next.add(m.cells[S.selection.length]);
  }
  // Before the first click: the cells a move starts from.
  next.forEach((c) => cell(c)?.classList.add("target"));
  S.selection.forEach((c) => cell(c)?.classList.add("selected"));
}

function clickCell(cell) {
  const st = S.state;
  if (!st || st.over || !humanSeat(st.seat) || S.search) return;
  const tried = S.selection.concat([cell]);
  const matching = st.legal.filter((m) => tried.every((c, i) => m.cells[i] === c));
  const exact = (cells) => st.legal.find((m) => m.cells.length === cells.length &&
    cells.every((c, i) => m.cells[i] === c));
  if (matching.length > 0) {
    S.selection = tried;
    const done = exact(tried);
    if (done && matching.every((m) => m.cells.length === tried.length)) return play(done.move);
    return markTargets();
  }
  // The last cell clicked again: stop there (a one-step move where a second step was possible).
  const last = S.selection[S.selection.length - 1];
  if (cell === last && exact(S.selection)) return play(exact(S.selection).move);
  S.selection = st.legal.some((m) => m.cells[0] === cell) ? [cell] : [];
  markTargets();
}

async function play(move) {
  if (!atEnd()) S.moves = S.moves.slice(0, S.view);
  S.moves.push(move);
  try { await show(S.moves.length); } catch (e) { S.moves.pop(); status(e.message, true); }
}

// --- the engine ---------------------------------------------------------------------------

function limits() {
  const ms = Number($("movetime").value);
  return ms > 0 ? { movetime_ms: Math.min(ms, 60000) } : {};
}

// A score in words: centi-units (and an MCTS value), or a forced result.
function scoreWords(sc) {
  if (!sc) return "–";
  if (sc.mate_plies !== undefined) {
    const n = Math.abs(sc.mate_plies);
    const plies = `${n} ${n === 1 ? 'ply' : 'plies'}`;
    return sc.mate_plies >= 0 ? `wins in ${plies}` : `loses in ${plies}`;
  }
  return `${sc.cp >= 0 ? "+" : ""}${sc.cp} cu` + (sc.value !== undefined ? ` (value ${sc.value})` : "");
}

// The best moves of the position shown: each searched after it (/rank, alpha-beta).
async function rankMoves() {
  const depth = Math.max(1, Math.min(5, Number($("rank-depth").value) || 3));
  const player = spec().startsWith("alphabeta") ? spec() : "alphabeta";
  const ol = $("ranked");
  ol.innerHTML = "<li>…</li>";
  try {
    const r = await api("/rank", Object.assign(where(S.moves.slice(0, S.view)), { player, depth, count: 5 }));
    ol.innerHTML = "";
    for (const m of r.moves) {
      const li = document.createElement("li");
      li.textContent = `${m.move}  ${scoreWords(m.score)}  ${m.pv.slice(1).join(" ")}`;
      ol.appendChild(li);
    }
  } catch (e) { ol.innerHTML = ""; status(e.message, true); }
}

function showInfo(d) {
  const sc = d.score;
  const words = scoreWords(sc);
  const win = sc ? sc.win_probability : null;
  $("score").textContent = words;
  $("win").textContent = win === null ? "–" : `${Math.round(win * 100)}% for the side to move`;
  $("winbar").style.width = win === null ? "50%" : `${Math.round(win * 100)}%`;
  $("depth").textContent = String(d.depth);
  $("nodes").textContent = `${d.nodes} (effort ${d.effort})`;
  $("time").textContent = `${d.time_ms} ms`;
  $("pv").textContent = d.pv.join(" ") || "–";
  if (d.move && !S.candidates.some((c) => c.move === d.move && c.depth === d.depth)) {
    S.candidates = S.candidates.filter((c) => c.move !== d.move);
    S.candidates.unshift({ move: d.move, depth: d.depth, words });
    const ol = $("candidates");
    ol.innerHTML = "";
    S.candidates.slice(0, 5).forEach((c) => {
      const li = document.createElement("li");
      li.textContent = `${c.move}  ${c.words}  (depth ${c.depth})`;
      ol.appendChild(li);
    });
  }
}

// Runs a search of the position shown, reading its server-sent events as they come.
async function runSearch(andPlay) {
  if (S.search) return;
  const controller = new AbortController();
  S.search = { controller, id: null };
  S.candidates = [];
  $("candidates").innerHTML = "";
  document.body.classList.add("thinking");
  const body = Object.assign(where(S.moves.slice(0, S.view)), { player: spec() }, limits());
  let done = null;
  try {
    const response = await fetch("/api/v1/search", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), signal: controller.signal,
    });
    if (!response.ok) throw new Error((await response.json()).error);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) break;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let event = "message", data = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data += line.slice(5).trim();
        }
        if (!data) continue;
        const payload = JSON.parse(data);
        if (event === "start") S.search.id = payload.id;
        else if (event === "info") showInfo(payload);
        else if (event === "done") { showInfo(payload); done = payload; }
        else if (event === "error") throw new Error(payload.error);
      }
    }
  } catch (e) {
    if (e.name !== "AbortError") status(e.message, true);
  } finally {
    if (S.search && S.search.controller === controller) {
      S.search = null;
      document.body.classList.remove("thinking");
    }
  }
  if (andPlay && done && done.move) await play(done.move);
}

function engineMove() { return runSearch(true); }

async function stopSearch() {
  if (S.search && S.search.id !== null) await api("/stop", { id: S.search.id });
}

// --- menus --------------------------------------------------------------------------------

function fill(select, items) {
  select.innerHTML = "";
  for (const [value, label] of items) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    select.appendChild(o);
  }
}

function gameChanged() {
  const g = S.games.find((x) => x.name === $("game").value);
  fill($("variant"), g.variants.map((v) => [v, v]));
}

function seatsFor(seats, sides) {
  const items = seats === 2
    ? [["0", `${sides[0]} (first)`], ["1", `${sides[1]}`]]
    : Array.from({ length: seats }, (_, k) => [String(k), `seat ${k} (${sides[k % 2]})`]);
  return items.concat([["all", "every seat (no engine)"], ["none", "no seat (engine against itself)"]]);
}

function clearInfo() {
  for (const id of ["win", "score", "depth", "nodes", "time", "pv"]) $(id).textContent = "–";
  $("winbar").style.width = "50%";
  $("candidates").innerHTML = "";
  $("ranked").innerHTML = "";
  S.candidates = [];
}

async function newGame(extra) {
  if (S.search) { S.search.controller.abort(); S.search = null; }
  clearInfo();
  S.game = $("game").value;
  S.variant = $("variant").value;
  S.mode = "play";
  S.moves = [];
  const pos = $("position").value.trim();
  const first = { game: S.game, variant: S.variant, seed: Number($("seed").value) || 0 };
  if (pos) first.position = pos;
  try {
    const st = await api("/state", Object.assign(first, extra || {}));
    S.start = st.start;
    const keep = $("seat").value;
    const g = S.games.find((x) => x.name === S.game);
    fill($("seat"), seatsFor(st.seats, g.sides));
    if ([...$("seat").options].some((o) => o.value === keep)) $("seat").value = keep;
    await show(0);
  } catch (e) { status(e.message, true); }
}

async function openState(st, title) {
  if (S.search) { S.search.controller.abort(); S.search = null; }
  clearInfo();
  S.game = st.game;
  $("game").value = st.game;
  gameChanged();
  S.variant = null;
  S.start = st.start;
  S.moves = st.moves;
  S.mode = "analyse";
  $("seat").value = "all";
  await show(S.moves.length);
  if (title) $("run-title").textContent = title;
}

function download() {
  if (!S.state) return;
  const blob = new Blob([S.state.record], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `${S.game}-game.txt`;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

async function takeBack() {
  if (S.search) { S.search.controller.abort(); S.search = null; }
  S.mode = "analyse"; // no engine reply while moves are being taken back
  S.moves = S.moves.slice(0, S.view);
  if (S.moves.length === 0) return;
  S.moves.pop();
  // Back to a seat of yours when you play one.
  for (;;) {
    const st = await api("/state", where(S.moves));
    if (humanSeat(st.seat) || S.moves.length === 0 || $("seat").value === "none") break;
    S.moves.pop();
  }
  await show(S.moves.length);
  S.mode = "play";
}

async function init() {
  const info = await api("/games");
  S.games = info.games;
  S.players = info.players;
  fill($("game"), info.games.map((g) => [g.name, g.name]));
  fill($("player"), info.players.map((p) => [p.spec, `${p.label}`]));
  const depth1 = info.players.find((p) => p.spec === "alphabeta:depth=2");
  if (depth1) $("player").value = depth1.spec;
  gameChanged();
  $("game").onchange = gameChanged;
  $("board").addEventListener("click", (e) => {
    const el = e.target.closest("[data-cell]");
    if (el) clickCell(el.getAttribute("data-cell"));
  });
  $("new").onclick = () => newGame();
  $("flip").onclick = () => { S.flipped = !S.flipped; $("board").classList.toggle("flipped", S.flipped); };
  $("undo").onclick = () => takeBack().catch((e) => status(e.message, true));
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(S.view - 1);
  $("next").onclick = () => show(S.view + 1);
  $("last").onclick = () => show(S.moves.length);
  $("download").onclick = download;
  $("analyse").onclick = () => runSearch(false);
  $("rank").onclick = () => rankMoves();
  $("go").onclick = () => engineMove();
  $("stop").onclick = () => stopSearch().catch((e) => status(e.message, true));
  $("play-text").onclick = () => { const t = $("move-text").value.trim(); if (t) play(t); };
  $("load-record").onclick = async () => {
    try {
      const body = { game: $("game").value, record: $("record").value };
      if ($("variant").value) body.variant = $("variant").value;
      await openState(await api("/record", body));
    } catch (e) { status(e.message, true); }
  };
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA") return;
    if (e.key === "ArrowLeft") show(S.view - 1);
    if (e.key === "ArrowRight") show(S.view + 1);
  });
  if (info.runs) {
    $("runs-box").hidden = false;
    const listing = await api("/runs");
    fill($("runs"), listing.files.map((f) => [f, f]));
    $("open-run").onclick = async () => {
      try {
        const st = await api("/runs/game", { path: $("runs").value, index: Number($("run-index").value) || 0, game: $("game").value });
        await openState(st, `${st.title} (${st.count} in the file)`);
      } catch (e) { status(e.message, true); }
    };
  }
  fill($("seat"), seatsFor(2, info.games[0].sides));
  await newGame();
}

init().catch((e) => status(e.message, true));
