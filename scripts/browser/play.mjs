// The real-browser test of `pjlab serve`: Debian's Chromium, driven by playwright-core, loads
// the page, plays a whole Pijersi game against alphabeta:depth=1 by clicking the board, downloads
// the record, and checks that `pjlab replay` accepts it with the page's result. With SHOTS=DIR it
// also takes screenshots (JPEG) of the page's states (a game, analysis, Abalone, doubles, a replay).
//
// Usage: node play.mjs PJLAB_BINARY [CHROMIUM]
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const pjlab = process.argv[2];
const browserPath = process.argv[3] || "/usr/bin/chromium";
const shots = process.env.SHOTS || null;
const work = mkdtempSync(join(tmpdir(), "pjlab-browser-"));

// A screenshot of the page under SHOTS: a JPEG (small enough to keep beside the code), or a PNG
// with SHOTS_PNG=1.
async function shot(page, name) {
  if (process.env.SHOTS_PNG === "1") await page.screenshot({ path: join(shots, `${name}.png`) });
  else await page.screenshot({ path: join(shots, `${name}.jpg`), type: "jpeg", quality: 70 });
}

function fail(message) {
  console.error(`browser test: ${message}`);
  process.exit(1);
}

// 1. The server on a free port: its address is the first line it prints.
const server = spawn(pjlab, ["serve", "--port", "0", "--workers", "1", "--runs", work], {
  stdio: ["ignore", "ignore", "pipe"],
});
const url = await new Promise((resolve, reject) => {
  let seen = "";
  server.stderr.on("data", (chunk) => {
    seen += chunk;
    const m = seen.match(/http:\/\/[0-9.:]+\//);
    if (m) resolve(m[0]);
  });
  server.on("exit", (code) => reject(new Error(`pjlab serve exited (${code}): ${seen}`)));
  setTimeout(() => reject(new Error(`no address from pjlab serve: ${seen}`)), 30000);
}).catch((e) => fail(e.message));

// A runs directory with one recorded game (written by the API), for the replay screenshot.
const made = await fetch(url + "api/v1/state", {
  method: "POST", headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ game: "pijersi", moves: ["a4b5c4", "g1f1"] }),
});
writeFileSync(join(work, "game.txt"), (await made.json()).record);

const browser = await chromium.launch({
  executablePath: browserPath,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
let code = 0;
try {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ply === "0");

  // 2. A new Pijersi game against alphabeta:depth=1, the browser's side White.
  await page.fill("#spec", "alphabeta:depth=1");
  await page.selectOption("#seat", "0");
  await page.click("#new");
  await page.waitForFunction(() => document.body.dataset.ply === "0" && /your move/.test(document.getElementById("status").textContent));

  // 3. Moves by clicks until the game ends: a seeded choice among the legal moves the page holds.
  let seed = 2024;
  let plies = 0;
  for (;;) {
    await page.waitForFunction(() => document.body.dataset.busy === "false" &&
      !document.body.classList.contains("thinking") &&
      (document.body.dataset.over === "true" || /your move/.test(document.getElementById("status").textContent)));
    const st = await page.evaluate(() => ({ over: S.state.over, legal: S.state.legal, ply: S.moves.length }));
    if (st.over) break;
    if (plies === 4 && shots) await shot(page, "game");
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const move = st.legal[seed % st.legal.length];
    for (const cell of move.cells) {
      await page.locator(`#board polygon.cell[data-cell="${cell}"]`).click({ force: true });
    }
    // A move that longer ones begin with: the last cell clicked again ends it there.
    if (await page.evaluate((ply) => S.moves.length === ply, st.ply)) {
      await page.locator(`#board polygon.cell[data-cell="${move.cells[move.cells.length - 1]}"]`).click({ force: true });
    }
    const played = await page.evaluate((ply) => S.moves[ply], st.ply);
    if (played !== move.move) fail(`clicked ${move.cells.join(" ")} for ${move.move}, the page played ${played}`);
    plies += 1;
    if (plies > 400) fail("the game did not end in 400 moves of the browser's side");
  }
  const result = await page.evaluate(() => S.state.result);
  const total = await page.evaluate(() => S.moves.length);

  // 4. The record, downloaded as a person would, must replay to the same result.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
  const file = join(work, "downloaded.txt");
  await download.saveAs(file);
  const replay = execFileSync(pjlab, ["replay", file], { encoding: "utf8" }).trim().split("\n");
  const replayed = replay[replay.length - 1];
  if (replayed !== result) fail(`pjlab replay says ${replayed}, the page said ${result}`);
  console.log(`browser test: a game of ${total} plies by clicks, ${result}; pjlab replay agrees`);

  if (shots) {
    await shot(page, "game-over");
    // Analysis: a pasted record, stepped back, searched.
    await page.fill("#record", readFileSync(file, "utf8"));
    await page.click("#load-record");
    await page.waitForFunction(() => S.mode === "analyse");
    await page.click("#first");
    for (let k = 0; k < 6; k++) await page.click("#next");
    await page.fill("#spec", "alphabeta");
    await page.fill("#movetime", "1500");
    await page.click("#analyse");
    await page.waitForFunction(() => document.getElementById("pv").textContent !== "–");
    await page.waitForFunction(() => !document.body.classList.contains("thinking"));
    await page.click("#rank");
    await page.waitForFunction(() => document.querySelectorAll("#ranked li").length === 5);
    await shot(page, "analysis");
    // Abalone against the engine, a few moves in.
    await page.fill("#movetime", "0");
    await page.fill("#spec", "alphabeta:depth=1");
    await page.selectOption("#game", "abalone");
    await page.selectOption("#variant", "standard");
    await page.selectOption("#seat", "none");
    await page.click("#new");
    await page.waitForFunction(() => S.moves.length >= 6);
    await page.selectOption("#seat", "all");
    await page.waitForFunction(() => !document.body.classList.contains("thinking"));
    await shot(page, "abalone");
    // Doubles: the browser on seat 1, the engine on the three others.
    await page.selectOption("#variant", "doubles");
    await page.click("#new");
    await page.waitForFunction(() => S.state && S.state.seats === 4);
    await page.selectOption("#seat", "0");
    await page.click("#new");
    await page.waitForFunction(() => /your move/.test(document.getElementById("status").textContent));
    const d = await page.evaluate(() => S.state.legal[0].cells[0]);
    await page.locator(`#board polygon.cell[data-cell="${d}"]`).click({ force: true });
    await shot(page, "doubles");
    // A recorded game under --runs.
    await page.selectOption("#game", "pijersi");
    await page.selectOption("#runs", "game.txt");
    await page.click("#open-run");
    await page.waitForFunction(() => S.mode === "analyse" && S.moves.length === 2);
    await shot(page, "replay");
  }
  if (errors.length) fail(`errors in the page: ${errors.join("; ")}`);
} catch (e) {
  console.error(e);
  code = 1;
} finally {
  await browser.close();
  server.kill();
}
process.exit(code);
