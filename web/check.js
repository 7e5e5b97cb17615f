/* The WebAssembly engine checked under Node (tests/test_web.py runs it):
 *
 *   node check.js perft DEPTH      perft (full: captures and endings too)
 *                                  under every preset, from the set-up
 *                                  and from each bench position
 *   node check.js bench            brandubh bench's searches: the
 *                                  signature (total nodes), the moves and
 *                                  the rate
 *   node check.js game SIDE LEVEL [VARIANT]
 *                                  a whole game through the page's back
 *                                  end (backend.js, board.js): the person
 *                                  plays the first legal move each turn,
 *                                  the engine replies; every answer out
 *   node check.js outlook CASES    what scores mean (brandubh/chances.py)
 *   node check.js puzzles          every bundled puzzle through the back
 *                                  end: solved move by move, then a hint
 *                                  and a wrong first move; every answer
 *                                  out (what each says, and what the board
 *                                  shows: its line, result, moves, checks)
 *   node check.js stop             a search of fifty million positions in a
 *                                  worker thread, stopped from this one
 *                                  through a shared flag after 300 ms
 *
 * run in a folder tools/build-web wrote; one line of JSON out. */
"use strict";
const fs = require("fs");
const path = require("path");
const { BrandubhEngine } = require("./brandubh.js");
const data = require("./brandubh-data.js");

const engine = BrandubhEngine.loadSync(fs.readFileSync(path.join(__dirname, "brandubh.wasm")), data);
const [what, arg] = process.argv.slice(2);

if (what === "perft") {
  const depth = Number(arg);
  const out = [];
  const positions = Object.keys(data.presets).map((preset) => [preset, data.setup]).concat(data.bench.positions);
  for (const [preset, position] of positions) {
    const s = engine.perft(preset, position, depth, { full: true });
    out.push([preset, position, s.leaves, s.captures, s.endings]);
  }
  console.log(JSON.stringify(out));
} else if (what === "bench") {
  let nodes = 0;
  const moves = [];
  const t0 = process.hrtime.bigint();
  for (const [preset, position] of data.bench.positions) {
    const game = engine.game(preset, position);
    const found = game.search({ budget: data.bench.budget, depth: data.bench.depth, seed: 1 });
    nodes += found.nodes;
    moves.push(found.move);
    game.free();
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(JSON.stringify({ nodes, moves, seconds, nps: nodes / seconds }));
} else if (what === "outlook" || what === "game" || what === "puzzles") {
  globalThis.BRANDUBH_DATA = data;
  globalThis.BRANDUBH_WASM = fs.readFileSync(path.join(__dirname, "brandubh.wasm")).toString("base64");
  globalThis.BrandubhEngine = BrandubhEngine;
  require("./board.js");
  require("./backend.js");
  const api = globalThis.brandubhBackend;
  if (what === "outlook") {
    // Each case of argv[3] (JSON: [variant, raw, mate_in, side to move, viewer, depth]).
    console.log(JSON.stringify(JSON.parse(process.argv[3]).map((c) => api.outlook(...c))));
    return;
  }
  if (what === "puzzles") {
    (async () => {
      const out = [];
      for (const [rules, rows] of Object.entries(data.puzzles)) {
        const ids = rows.map((row) => row[0]);
        for (const row of rows) {
          const seen = ids.filter((id) => id !== row[0]);
          const solution = row[2].split(" ");
          // The solution, move by move.
          // What the board shows (the line above it, the moves and their
          // marks, the checks), the page's answer after each.
          const shown = (s) => [s.status_line, s.result, s.legal, s.checks];
          let s = (await api.request("POST", "/api/puzzles", { variant: rules, seen })).data;
          const steps = [shown(s)];
          for (let ply = 0; ply < solution.length; ply += 2) {
            s = (await api.request("POST", "/api/puzzles/" + s.id + "/move", { move: solution[ply] })).data;
            steps.push([s.verdict, s.said, s.rated, ...shown(s)]);
          }
          // A hint, then a wrong first move (the first legal one that is not the solution's).
          s = (await api.request("POST", "/api/puzzles", { variant: rules, seen })).data;
          const hinted = (await api.request("POST", "/api/puzzles/" + s.id + "/hint", {})).data;
          const wrong = s.legal.map((m) => m.from + m.to).find((m) => m !== solution[0]);
          const missed = wrong === undefined ? null
            : (await api.request("POST", "/api/puzzles/" + s.id + "/move", { move: wrong })).data;
          out.push({ rules, id: row[0], steps, hint: hinted.hint, wrong,
                     missed: missed && [missed.verdict, missed.said, missed.solution, missed.rated, ...shown(missed)] });
        }
      }
      console.log(JSON.stringify(out));
    })().catch((error) => { console.error(error); process.exit(1); });
    return;
  }
  (async () => {
    const answers = [];
    const ask = async (method, route, body) => {
      const answer = await api.request(method, route, body);
      answers.push({ method, route, body: body || null, status: answer.status, data: answer.data });
      return answer.data;
    };
    let s = await ask("POST", "/api/games", { side: process.argv[3], level: Number(process.argv[4]),
                                              variant: process.argv[5] || "brandubh" });
    const id = s.id;
    await ask("POST", "/api/games/" + id + "/move", { move: "d1d4" });   // refused
    while (s.status === "active" && s.plies < 300) {
      if (s.your_turn) s = await ask("POST", "/api/games/" + id + "/move", { move: s.legal[0].from + s.legal[0].to });
      else s = await ask("POST", "/api/games/" + id + "/reply", {});
    }
    await ask("GET", "/api/games/" + id + "?ply=1");
    await ask("POST", "/api/games/" + id + "/undo", {});
    await ask("POST", "/api/games/" + id + "/analysis", {});
    await ask("POST", "/api/games/" + id + "/resign", {});
    console.log(JSON.stringify(answers));
  })().catch((error) => { console.error(error); process.exit(1); });
} else if (what === "stop") {
  const { Worker } = require("worker_threads");
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const source = `
    const { parentPort, workerData } = require("worker_threads");
    const { BrandubhEngine } = require(workerData.dir + "/brandubh.js");
    const data = require(workerData.dir + "/brandubh-data.js");
    const engine = BrandubhEngine.loadSync(require("fs").readFileSync(workerData.dir + "/brandubh.wasm"), data);
    const game = engine.game("brandubh");
    parentPort.postMessage("started");
    const t0 = Date.now();
    const found = game.search({ budget: 50000000, seed: 1, stop: workerData.flag });
    found.ms = Date.now() - t0;
    found.legal = game.moves().includes(found.move);
    parentPort.postMessage(found);`;
  const worker = new Worker(source, { eval: true, workerData: { dir: __dirname, flag } });
  worker.on("message", (m) => {
    if (m === "started") {
      // Stop once the worker has searched for 0.3 s of processor time, not
      // of the clock: on a busy machine it may not have run at all after
      // 0.3 s of the clock, and a search stopped before its first position
      // shows nothing. This thread only looks at the clock meanwhile.
      const from = process.cpuUsage();
      const poll = setInterval(() => {
        const used = process.cpuUsage(from);
        if (used.user + used.system >= 300000) { clearInterval(poll); Atomics.store(flag, 0, 1); }
      }, 20);
      return;
    }
    console.log(JSON.stringify(m));
    worker.terminate();
  });
} else {
  console.error("usage: node check.js perft DEPTH | bench | game SIDE LEVEL [VARIANT] | outlook CASES | puzzles | stop");
  process.exit(2);
}
