// A bounded load test of `pjlab serve`, on loopback: CLIENTS clients at once (32 by default),
// each playing a whole game against the server at a fast budget (its own moves drawn from the
// legal moves the API lists, the server's answers from /bestmove), then stopping. Checks that
// every answer is a legal move of that client's own game (no game mixed with another), that
// every game ends (or reaches the ply cap), and samples the server's resident memory.
//
// Usage: node scripts/load-serve.mjs target/release/pjlab [CLIENTS] [GAMES_EACH] [PLY_CAP]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

const pjlab = process.argv[2] || "target/release/pjlab";
const clients = Number(process.argv[3] || 32);
const gamesEach = Number(process.argv[4] || 4);
const plyCap = Number(process.argv[5] || 200);
// The server's player, and a time a move (PLAYER and MOVETIME_MS in the environment).
const player = process.env.PLAYER || "alphabeta:depth=1";
const movetime = process.env.MOVETIME_MS ? { movetime_ms: Number(process.env.MOVETIME_MS) } : {};

const server = spawn(pjlab, ["serve", "--port", "0", "--queue", process.env.QUEUE || "64"], { stdio: ["ignore", "ignore", "pipe"] });
const url = await new Promise((resolve, reject) => {
  let seen = "";
  server.stderr.on("data", (c) => {
    seen += c;
    const m = seen.match(/http:\/\/[0-9.:]+\//);
    if (m) resolve(m[0]);
  });
  setTimeout(() => reject(new Error("no address: " + seen)), 30000);
});

function rssMiB() {
  const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s+(\d+)/)[1]) / 1024;
}

let refused = 0, requests = 0;
async function post(path, body) {
  for (let attempt = 0; ; attempt++) {
    requests++;
    const r = await fetch(url + "api/v1" + path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await r.json();
    if (r.status === 503 && attempt < 1000) {
      refused++;
      await new Promise((res) => setTimeout(res, 5 + Math.random() * 20));
      continue;
    }
    if (!r.ok) throw new Error(`${path}: ${r.status} ${data.error}`);
    return data;
  }
}

async function client(k) {
  const games = [];
  for (let g = 0; g < gamesEach; g++) games.push(await oneGame(k, g));
  return games;
}

// Game `g` of client `k`: Pijersi from a seeded random setup, or (one client in four) Abalone.
async function oneGame(k, g) {
  const game = k % 4 === 3 ? "abalone" : "pijersi";
  const at = game === "pijersi" ? { game, variant: "full-random", seed: k * 1000 + g } : { game };
  const moves = [];
  let rng = 1000 + k * 7919 + g;
  for (let ply = 0; ply < plyCap; ply++) {
    const { moves: legal } = await post("/legal", { ...at, moves });
    if (legal.length === 0) return { game, plies: ply, ended: true };
    let mv;
    if (ply % 2 === 0) {
      rng = (rng * 1103515245 + 12345) % 2147483648;
      mv = legal[rng % legal.length];
    } else {
      const answer = await post("/bestmove", { ...at, moves, player, player_seed: k, ...movetime });
      mv = answer.move;
      if (!legal.includes(mv)) throw new Error(`client ${k}, ply ${ply}: ${mv} is not legal in its own game`);
    }
    moves.push(mv);
  }
  return { game, plies: plyCap, ended: false };
}

const started = Date.now();
const samples = [rssMiB()];
const sampler = setInterval(() => samples.push(rssMiB()), 200);
const results = (await Promise.all(Array.from({ length: clients }, (_, k) => client(k)))).flat();
clearInterval(sampler);
samples.push(rssMiB());
const seconds = (Date.now() - started) / 1000;
server.kill();

const plies = results.reduce((s, r) => s + r.plies, 0);
const ended = results.filter((r) => r.ended).length;
const quarter = samples.slice(Math.floor(samples.length / 4));
const report = {
  clients, games: results.length, player, ...movetime, ply_cap: plyCap, seconds: Math.round(seconds * 10) / 10,
  games_ended: ended, games_at_cap: results.length - ended, plies, requests, refused_503: refused,
  requests_per_second: Math.round(requests / seconds),
  rss_mib: { start: Math.round(samples[0]), after_first_quarter: Math.round(quarter[0]), peak: Math.round(Math.max(...samples)), end: Math.round(samples[samples.length - 1]) },
};
console.log(JSON.stringify(report, null, 1));
// Memory is flat when the last three quarters of the run stay within 64 MiB of where they began.
const drift = Math.max(...quarter) - quarter[0];
if (drift > 64) { console.error(`memory grew by ${drift.toFixed(0)} MiB`); process.exit(1); }
