/* The WebAssembly engine checked under Node (tests/test_web.py runs it):
 *
 *   node check.js perft DEPTH      perft (full: captures and endings too)
 *                                  under every preset, from the set-up
 *                                  and from each bench position
 *   node check.js bench            brandubh bench's searches: the
 *                                  signature (total nodes), the moves and
 *                                  the rate
 *
 * run in a folder tools/build-web wrote; one line of JSON out. */
"use strict";
const fs = require("fs");
const path = require("path");
const { BrandubhEngine } = require("./engine.js");
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
} else {
  console.error("usage: node check.js perft DEPTH | bench");
  process.exit(2);
}
