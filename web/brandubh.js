/* brandubh in JavaScript: the engine, csrc/ compiled to WebAssembly
 * (tools/build-web), and this module over it (what brandubh/core/ is to
 * Python). A plain script, so that a page opened from the disk (file://)
 * loads it with a <script> tag, a Web Worker runs it from a Blob, and Node
 * takes it with require():
 *
 *   const { BrandubhEngine } = require("./brandubh.js"); // Node
 *   const engine = await BrandubhEngine.load(wasmBytes, data);
 *   const game = engine.game("brandubh");               // the set-up
 *   game.moves();                 // [move numbers]; engine.moveText(m): "d1d3"
 *   game.play("d4d2"); game.undo();
 *   const found = game.search({ budget: 20000, seed: 1 });   // found.move, .score, ...
 *   engine.perft("codingame", engine.setup, 4).leaves;
 *
 * `data` is what tools/build-web writes beside the engine
 * (brandubh-data.js): the presets' fields as the engine's bd_variant takes
 * them, and the set-up, both read from the Python package when it builds.
 *
 * A search runs on the calling thread until its budget is spent or its
 * caller's stop flag is raised: the flag is an Int32Array over a
 * SharedArrayBuffer that the thread searching (a Worker, a Node worker
 * thread) shares with the one that stops it (web/stop_wasm.h). Where no
 * memory can be shared (a page that is not cross-origin isolated: one
 * opened from the disk), a search in a Worker is stopped by ending the
 * Worker: the page's back end does either (web/backend.js). */
(function (root) {
  "use strict";

  const OUTCOMES = ["ongoing", "corner", "capture", "no_pieces", "repetition", "encircled", "no_move",
                    "ply_cap", "quiet_cap"];
  const FILES = "abcdefg";

  function squareName(sq) { return FILES[sq % 7] + String(Math.floor(sq / 7) + 1); }
  function squareNumber(name) {
    const m = /^([a-g])([1-7])$/.exec(name);
    return m ? (Number(m[2]) - 1) * 7 + FILES.indexOf(m[1]) : -1;
  }
  function moveText(m) { return squareName(m >> 6) + squareName(m & 63); }
  /* A move written d1d3, d1-d3, d1-d3xc3 or Kd4-d1: its number, or -1. */
  function parseMove(text) {
    const m = /^\s*K?([a-g][1-7])\s*[-x]?\s*([a-g][1-7])(?:x[a-g][1-7](?:\/?[a-g][1-7])*)*\s*$/i.exec(String(text));
    if (!m) return -1;
    return squareNumber(m[1].toLowerCase()) * 64 + squareNumber(m[2].toLowerCase());
  }

  function decodeBase64(text) {
    if (typeof Buffer !== "undefined") return new Uint8Array(Buffer.from(text, "base64"));
    const bin = atob(text);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  /* What the engine imports: whether the search under way is to stop
   * (web/stop_wasm.h), read from the flag its caller gave it. */
  function importsFor(hooks) {
    return { env: { bdw_stop_requested: () => (hooks.stop && Atomics.load(hooks.stop, 0) !== 0 ? 1 : 0) } };
  }

  class Engine {
    constructor(instance, data, hooks) {
      this.hooks = hooks;
      this.x = instance.exports;
      this.data = data || {};
      this.setup = this.data.setup;
      if (this.x._initialize) this.x._initialize();
      const at = this.x.malloc(4 * 64);
      const n = this.x.bdw_layout(at);
      const v = new Int32Array(this.x.memory.buffer, at, n).slice();
      this.x.free(at);
      const names = ["variant", "weights", "weights_eval", "limits", "budget", "depth", "seed", "off",
                     "tt_bytes", "stop", "table", "threads", "result", "move", "score", "rdepth", "nodes",
                     "stopped", "pv_length", "pv", "perft", "leaves", "captures", "endings", "report", "flags"];
      this.layout = {};
      names.forEach((name, i) => { this.layout[name] = v[i]; });
      // One scratch block for every call's arguments and answers: calls
      // never overlap on one thread.
      this.scratch = this.x.malloc(4096);
      this.variants = {};
    }

    moveText(m) { return moveText(m); }
    parseMove(text) { return parseMove(text); }
    view() { return new DataView(this.x.memory.buffer); }
    malloc(n) {
      const p = this.x.malloc(n);
      if (!p) throw new Error("the engine is out of memory");
      return p;
    }

    writeString(text, at) {
      const bytes = new TextEncoder().encode(String(text));
      const heap = new Uint8Array(this.x.memory.buffer);
      heap.set(bytes.subarray(0, 255), at);
      heap[at + Math.min(bytes.length, 255)] = 0;
      return at;
    }
    readString(at) {
      const heap = new Uint8Array(this.x.memory.buffer);
      let end = at;
      while (heap[end]) end++;
      return new TextDecoder().decode(heap.subarray(at, end));
    }

    /* The engine's rule set: a preset's name, or an array of the bd_variant
     * fields in their order (data.variantFields names them). Made once per
     * name; a number (a pointer into the engine's memory). */
    variant(which) {
      const key = typeof which === "string" ? which : JSON.stringify(which);
      if (this.variants[key]) return this.variants[key];
      let fields = which;
      if (typeof which === "string") {
        fields = (this.data.presets || {})[which];
        if (!fields) throw new Error("no preset named " + JSON.stringify(which));
      }
      const p = this.malloc(this.layout.variant);
      const view = this.view();
      fields.forEach((value, i) => view.setInt32(p + 4 * i, value, true));
      const cap = fields[(this.data.variantFields || []).indexOf("ply_cap")] || 400;
      if (this.x.bd_variant_normalize(p, cap) !== 0) {
        this.x.free(p);
        throw new Error("the engine refused the variant " + key);
      }
      this.variants[key] = p;
      return p;
    }

    /* A new game under a rule set from a position string (the set-up by
     * default). */
    game(variant, position) {
      const v = this.variant(variant || "brandubh");
      const text = this.writeString(position || this.setup, this.scratch);
      const g = this.x.bd_game_from_string(v, text);
      if (!g) throw new Error("not a position the engine takes: " + JSON.stringify(position));
      return new Game(this, g, v);
    }

    /* Leaves of the move tree `depth` moves deep (bulk counting at the
     * last ply unless full, which also counts captures and endings). */
    perft(variant, position, depth, options) {
      const o = options || {};
      const v = this.variant(variant);
      const pos = this.x.bd_pos_new();
      const L = this.layout;
      try {
        if (this.x.bd_pos_from_string(this.writeString(position || this.setup, this.scratch), pos) !== 0) {
          throw new Error("not a position: " + JSON.stringify(position));
        }
        const stats = this.scratch + 256;
        new Uint8Array(this.x.memory.buffer, stats, L.perft).fill(0);
        this.x.bd_perft(v, pos, depth, o.slides ? 1 : 0, o.full ? 0 : 1, stats, 0);
        const view = this.view();
        return { leaves: Number(view.getBigUint64(stats + L.leaves, true)),
                 captures: Number(view.getBigUint64(stats + L.captures, true)),
                 endings: Number(view.getBigUint64(stats + L.endings, true)) };
      } finally {
        this.x.bd_pos_free(pos);
      }
    }
  }

  class Game {
    constructor(engine, handle, variant) {
      this.engine = engine;
      this.g = handle;
      this.v = variant;
    }
    get x() { return this.engine.x; }
    free() { if (this.g) { this.x.bd_game_free(this.g); this.g = 0; } }
    clone() { return new Game(this.engine, this.x.bd_game_clone(this.g), this.v); }

    get ply() { return this.x.bd_game_ply(this.g); }
    get side() { return this.x.bd_game_side(this.g) === 0 ? "attackers" : "defenders"; }
    get outcome() { return OUTCOMES[this.x.bd_game_outcome(this.g)]; }
    get over() { return this.x.bd_game_outcome(this.g) !== 0; }
    /* "attackers", "defenders", or null (drawn, or not over). */
    get winner() {
      const w = this.x.bd_game_winner(this.g);
      return w < 0 ? null : w === 0 ? "attackers" : "defenders";
    }
    /* The position string after `ply` moves (now by default). */
    position(ply) {
      const p = this.x.bd_game_pos_at(this.g, ply === undefined ? this.ply : ply);
      if (!p) return null;
      this.x.bd_pos_to_string(p, this.engine.scratch);
      return this.engine.readString(this.engine.scratch);
    }
    /* 0 empty, 1 attacker, 2 defender, 3 king, after `ply` moves. */
    pieces(ply) {
      const p = this.x.bd_game_pos_at(this.g, ply === undefined ? this.ply : ply);
      const out = [];
      for (let sq = 0; sq < 49; sq++) out.push(this.x.bd_piece_at(p, sq));
      return out;
    }
    moveAt(ply) { return this.x.bd_game_move_at(this.g, ply); }
    /* What the move that reached `ply` did: the squares it emptied, and
     * whether the king moved, reached home or was taken. */
    reportAt(ply) {
      const at = this.engine.scratch + 512;
      this.x.bd_game_report_at(at, this.g, ply);
      const view = this.engine.view(), flags = view.getInt32(at + this.engine.layout.flags, true);
      return { captured: squaresOf(view.getBigUint64(at, true)), kingMoved: (flags & 1) !== 0,
               kingHome: (flags & 2) !== 0, kingTaken: (flags & 4) !== 0 };
    }
    /* Why the slide from -> to (square numbers) is refused now: 0 when it
     * is not (enum bd_why). */
    whyNot(from, to) {
      return this.x.bd_why_not(this.v, this.x.bd_game_pos_at(this.g, this.ply), from, to);
    }
    /* The variant's rules, as the engine holds them (bd_variant's fields). */
    variantFields() {
      const view = this.engine.view(), n = this.engine.layout.variant / 4, out = [];
      for (let i = 0; i < n; i++) out.push(view.getInt32(this.v + 4 * i, true));
      return out;
    }
    log() {
      const out = [];
      for (let i = 1; i <= this.ply; i++) out.push(this.moveAt(i));
      return out;
    }
    moves() {
      const at = this.engine.scratch + 1024;
      const n = this.x.bd_game_moves(this.g, at);
      return Array.from(new Uint16Array(this.x.memory.buffer, at, n));
    }
    /* Every legal move with what it captures, the ending it brings and
     * its winner. */
    legal() {
      const e = this.engine, x = this.x;
      const moves = e.malloc(160 * 2), caps = e.malloc(160 * 8), outs = e.malloc(160 * 4), wins = e.malloc(160 * 4);
      try {
        const n = x.bd_game_legal(this.g, moves, caps, outs, wins);
        if (n < 0) throw new Error("the engine is out of memory");
        const view = e.view(), list = [];
        for (let i = 0; i < n; i++) {
          const outcome = view.getInt32(outs + 4 * i, true), winner = view.getInt32(wins + 4 * i, true);
          list.push({ move: view.getUint16(moves + 2 * i, true),
                      captured: squaresOf(view.getBigUint64(caps + 8 * i, true)),
                      outcome: OUTCOMES[outcome],
                      winner: outcome === 0 || winner < 0 ? null : winner === 0 ? "attackers" : "defenders" });
        }
        return list;
      } finally {
        [moves, caps, outs, wins].forEach((p) => x.free(p));
      }
    }
    /* The evaluation of the position now, from the attackers' side, with
     * the default weights (the learned evaluation). */
    evaluate() {
      const w = this.engine.scratch + 1600;
      this.x.bd_default_weights(w);
      return this.x.bd_evaluate(this.v, this.x.bd_game_pos_at(this.g, this.ply), w);
    }
    /* Play a move (its number or its text): "ok", "over" or "illegal". */
    play(move) {
      const m = typeof move === "number" ? move : parseMove(move);
      if (m < 0 || m > 0xffff) return "illegal";
      const code = this.x.bd_game_play(this.g, m, 0);
      if (code === 3) throw new Error("the engine is out of memory");
      return ["ok", "over", "illegal"][code];
    }
    undo() { return this.x.bd_game_undo(this.g) === 1; }

    /* The search: { budget, depth, seed, eval ("learned" or "classical"),
     * off, ttBytes, stop }. The move (0 when the game is over), its score
     * for the side to move, the depth, the nodes and the best line.
     *
     * stop: an Int32Array whose first element another thread may set
     * non-zero (Atomics.store) while the search runs, over a
     * SharedArrayBuffer shared with it: the search then ends within a few
     * thousand positions, as if its budget had run out there, and answers
     * with what it found (stopped: true). */
    search(options) {
      const o = options || {};
      const e = this.engine, L = e.layout, x = this.x;
      const limits = e.scratch + 1536, weights = e.scratch + 1600, result = e.scratch + 1664;
      new Uint8Array(x.memory.buffer, e.scratch + 1536, 2048).fill(0);
      const view = e.view();
      view.setBigUint64(limits + L.budget, BigInt(Math.max(1, Math.floor(o.budget || 20000))), true);
      view.setInt32(limits + L.depth, o.depth || 0, true);
      view.setUint32(limits + L.seed, (o.seed || 0) >>> 0, true);
      view.setInt32(limits + L.off, o.off || 0, true);
      view.setBigUint64(limits + L.tt_bytes, BigInt(o.ttBytes || 0), true);
      view.setInt32(limits + L.threads, 1, true);
      x.bd_default_weights(weights);
      if (o.eval === "classical") view.setInt32(weights + L.weights_eval, 0, true);
      else if (o.eval === "learned") view.setInt32(weights + L.weights_eval, 1, true);
      e.hooks.stop = o.stop || null;
      let code;
      try {
        code = x.bd_search(this.g, limits, weights, result);
      } finally {
        e.hooks.stop = null;
      }
      if (code < 0) throw new Error("the engine is out of memory");
      const r = e.view(), pv = [];
      const n = r.getInt32(result + L.pv_length, true);
      for (let i = 0; i < n; i++) pv.push(r.getUint16(result + L.pv + 2 * i, true));
      return { move: r.getUint16(result + L.move, true), score: r.getInt32(result + L.score, true),
               depth: r.getInt32(result + L.rdepth, true), nodes: Number(r.getBigUint64(result + L.nodes, true)),
               stopped: r.getInt32(result + L.stopped, true) !== 0, pv, over: code === 1 };
    }
  }

  function squaresOf(bits) {
    const out = [];
    for (let sq = 0; sq < 49; sq++) if ((bits >> BigInt(sq)) & 1n) out.push(squareName(sq));
    return out;
  }

  const BrandubhEngine = {
    /* An engine from the WebAssembly's bytes (or base64 text) and the
     * build's data (brandubh-data.js). */
    async load(wasm, data) {
      const bytes = typeof wasm === "string" ? decodeBase64(wasm) : wasm;
      const hooks = { stop: null };
      const { instance } = await WebAssembly.instantiate(bytes, importsFor(hooks));
      return new Engine(instance, data, hooks);
    },
    /* The same at once, where compiling at once is allowed (Node, a
     * Worker). */
    loadSync(wasm, data) {
      const bytes = typeof wasm === "string" ? decodeBase64(wasm) : wasm;
      const hooks = { stop: null };
      return new Engine(new WebAssembly.Instance(new WebAssembly.Module(bytes), importsFor(hooks)), data, hooks);
    },
    OUTCOMES, squareName, squareNumber, moveText, parseMove, decodeBase64,
  };

  root.BrandubhEngine = BrandubhEngine;
  if (typeof module !== "undefined" && module.exports) module.exports = { BrandubhEngine };
})(typeof globalThis !== "undefined" ? globalThis : this);
