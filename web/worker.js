/* The static page's searches, in a Web Worker (web/backend.js starts it
 * from a Blob of web/brandubh.js and this file, so that it runs from a page
 * opened from the disk too): the page never waits on the engine, and a
 * search is stopped by raising the flag it shares with the page, or, where
 * the page can share no memory, by ending the Worker.
 *
 * Messages in: { init: wasmBytes, data } once, then { id, variant, start,
 * moves, budget, seed, stop } (variant: the bd_variant fields; stop: an
 * Int32Array over a SharedArrayBuffer, or null); out: { id, found } (what
 * Game.search answers) or { id, error }. */
"use strict";
let engine = null;

self.onmessage = (event) => {
  const m = event.data;
  if (m.init) {
    engine = BrandubhEngine.loadSync(m.init, m.data);
    return;
  }
  let game = null;
  try {
    game = engine.game(m.variant, m.start);
    for (const move of m.moves) {
      if (game.play(move) !== "ok") throw new Error("a move of the game was refused: " + engine.moveText(move));
    }
    self.postMessage({ id: m.id, found: game.search({ budget: m.budget, seed: m.seed, stop: m.stop }) });
  } catch (error) {
    self.postMessage({ id: m.id, error: String(error && error.message || error) });
  } finally {
    if (game) game.free();
  }
};
