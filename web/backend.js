/* The static page's back end: brandubh serve's JSON interface
 * (brandubh/serve/api.py), answered in the browser by the WebAssembly
 * engine, for the page of `brandubh serve` built with no server
 * (tools/build-web, docs/web.md).
 *
 * The page sends every request through its request(method, path, body);
 * when this script has set globalThis.brandubhBackend, the page asks it
 * instead of the server, and gets the same { status, data } back. It
 * answers the routes that play a game against the engine: GET /api, POST
 * /api/games, GET /api/games/ID, and a game's move, reply, undo, resign,
 * draw, analysis and continue, with the same JSON and the same sentences
 * as api.py and brandubh/session.py. Opening saved games (/api/open) and
 * the text download need the server.
 *
 * The engine's searches (its replies, a draw offer's judgement, an
 * analysis) run in a Web Worker (web/worker.js), started from a Blob so
 * that the page works opened from the disk, and the page never freezes;
 * brandubhBackend.stop() ends a search at once: where the page may share
 * memory with the Worker (cross-origin isolated) the engine then plays the
 * best move it found; elsewhere (a page opened from the disk) the Worker is
 * ended, the request refused, and a new Worker started for the next.
 * Everything else asks the engine on the page's own thread, which takes
 * microseconds. */
(function (root) {
  "use strict";
  const E = root.BrandubhEngine, data = root.BRANDUBH_DATA;
  const SIDES = ["attackers", "defenders"];
  const KINDS = { 1: "attacker", 2: "defender", 3: "king" };
  const LETTERS = { 1: "a", 2: "d", 3: "k" };
  const MATE = 30000, WIN = 29000, DRAW_MARGIN = 500;
  const ANALYSIS_ARROW = "#1f7a1f";
  const MAX_TABLES = 64;

  let engine = null, ready = null;
  const tables = new Map();

  class Refused extends Error {
    constructor(message, status, extra) { super(message); this.status = status || 400; this.extra = extra || {}; }
  }

  // -- words, as brandubh/words.py and errors.quote write them ---------------------

  const plural = (n, noun) => n + " " + noun + (n === 1 ? "" : "s");
  const listed = (words) => words.length <= 1 ? words.join("") : words.slice(0, -1).join(", ") + " and " + words[words.length - 1];
  const other = (side) => side === "attackers" ? "defenders" : "attackers";
  function quote(value) {
    let text;
    if (typeof value === "string") {
      const q = value.includes("'") && !value.includes('"') ? '"' : "'";
      text = q + value.replace(/\\/g, "\\\\").split(q).join("\\" + q) + q;
    } else if (value === null || value === undefined) text = "None";
    else if (value === true || value === false) text = value ? "True" : "False";
    else text = typeof value === "object" ? JSON.stringify(value) : String(value);
    return text.length <= 40 ? text : text.slice(0, 39) + "\u2026";
  }
  const ordinal = (n) => ({ 2: "second", 3: "third", 4: "fourth", 5: "fifth" })[n] || n + "th";

  // -- rule sets: brandubh/variant.py's strings ---------------------------------------

  const FIELDS = data.variantFields, CHOICES = data.choices, INTS = data.intFields;
  const MAX_PLY_CAP = 4096;

  function readVariant(text) {
    const words = String(text).trim().split(/\s+/).filter(Boolean);
    if (!words.length) words.push("brandubh");
    let base = "brandubh";
    if (!words[0].includes("=")) {
      base = words.shift();
      if (!data.presets[base]) {
        throw new Refused("no preset named " + quote(base) + "; the presets are " + Object.keys(data.presets).join(", "));
      }
    }
    const fields = data.presets[base].slice(), seen = new Set();
    for (const word of words) {
      const at = word.indexOf("="), key = word.slice(0, at), raw = word.slice(at + 1);
      if (at <= 0 || !raw) throw new Refused(quote(word) + " in " + quote(text) + " is not a field=value pair");
      if (seen.has(key)) throw new Refused(key + " is given twice in " + quote(text));
      seen.add(key);
      const i = FIELDS.indexOf(key);
      if (i < 0) throw new Refused("no variant field named " + quote(key) + "; the fields are " + FIELDS.slice().sort().join(", "));
      if (CHOICES[key]) {
        const k = CHOICES[key].indexOf(raw);
        if (k < 0) throw new Refused(key + " must be one of " + CHOICES[key].join(", ") + ", not " + quote(raw));
        fields[i] = k;
      } else if (INTS.includes(key)) {
        if (!/^-?[0-9]{1,9}$/.test(raw)) throw new Refused(key + " must be a whole number of at most nine digits, not " + quote(raw));
        fields[i] = Number(raw);
      } else {
        const low = raw.toLowerCase();
        if (["1", "true", "yes"].includes(low)) fields[i] = 1;
        else if (["0", "false", "no"].includes(low)) fields[i] = 0;
        else throw new Refused(key + " must be 1 or 0, not " + quote(raw));
      }
    }
    const f = (name) => FIELDS.indexOf(name);
    if (fields[f("repeat")] < 2) fields[f("repeat")] = 2;
    if (fields[f("repeat")] > 1000000) throw new Refused("repeat must be at most 1000000, not " + fields[f("repeat")]);
    const quiet = fields[f("quiet_cap")];
    if (quiet < 0 || quiet > MAX_PLY_CAP) throw new Refused("quiet_cap must be from 0 to " + MAX_PLY_CAP + ", not " + quiet);
    if (fields[f("ply_cap")] < 1 || fields[f("ply_cap")] > MAX_PLY_CAP) fields[f("ply_cap")] = nearest(fields).fields[f("ply_cap")];
    return fields;
  }

  function nearest(fields) {
    let best = null;
    for (const [name, preset] of Object.entries(data.presets)) {
      const diffs = preset.reduce((n, value, i) => n + (value !== fields[i]), 0);
      if (best === null || diffs < best.diffs) best = { name, fields: preset, diffs };
    }
    return best;
  }

  function variantString(fields) {
    const base = nearest(fields);
    const diffs = [];
    FIELDS.forEach((name, i) => {
      if (fields[i] !== base.fields[i]) diffs.push(name + "=" + (CHOICES[name] ? CHOICES[name][fields[i]] : fields[i]));
    });
    return [base.name].concat(diffs).join(" ");
  }

  // -- a game at the table ---------------------------------------------------------------

  /* One table: the engine's game, the person's side and the engine's level,
   * and what the players ended by themselves (a resignation, an agreed draw). */
  function newTable(fields, start, moves, you, level) {
    const game = engine.game(fields, start);
    for (const m of moves) game.play(m);
    let id;
    do {
      const bytes = new Uint8Array(6);
      root.crypto.getRandomValues(bytes);
      id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    } while (tables.has(id));
    const seed = new Uint32Array(1);
    root.crypto.getRandomValues(seed);
    const table = { id, fields, variant: variantString(fields), start, game, you, level, said: "", ending: null,
                    seed: seed[0], queue: Promise.resolve() };
    tables.set(id, table);
    while (tables.size > MAX_TABLES) {
      const oldest = tables.keys().next().value;
      tables.get(oldest).game.free();
      tables.delete(oldest);
    }
    return table;
  }

  // The person's seat is p1 at a game; a puzzle's game, as brandubh.Game.replay makes it, seats the attackers there.
  const seatOf = (table, side) => (table.puzzle ? side === "attackers" : side === table.you) ? "p1" : "p2";
  const over = (table) => table.ending !== null || table.game.over;

  /* How the game ended: { how, side } (side: the winner, or null), or null. */
  function result(table, game) {
    if (game === table.game && table.ending) return table.ending;
    return game.over ? { how: game.outcome, side: game.winner } : null;
  }

  /* How the game ended, and who won: brandubh.session.result_sentence, for the people at the
   * table (no seat names), or with `seats` Game.result_sentence (the board's description, as the
   * server's picture has it). */
  function endedHow(table, game, seats) {
    const r = result(table, game), what = endedWhat(table, game);
    if (r.how === "resign" || r.how === "agreed") return what;
    return r.side ? what + ", the " + r.side + (seats ? " (" + seatOf(table, r.side) + ")" : "") + " won"
      : what + ", a draw";
  }

  /* Game.how_ended: what ended the game, without who won. */
  function endedWhat(table, game) {
    const r = result(table, game), fields = table.fields, f = (name) => fields[FIELDS.indexOf(name)];
    if (r.how === "resign") return "the " + other(r.side) + " resigned";
    if (r.how === "agreed") return "the players agreed a draw";
    const ply = game.ply;
    let what;
    if (r.how === "corner") {
      const where = f("escape") === 0 ? "a corner" : "the edge";
      what = (ply === 0 ? "the king stood on " : "the king reached ") + where;
    } else if (r.how === "capture") what = ply === 0 ? "there was no king on the board" : "the king was captured";
    else if (r.how === "no_pieces") what = "the attackers had no piece left";
    else if (r.how === "repetition") what = "a position occurred for the " + ordinal(f("repeat")) + " time";
    else if (r.how === "encircled") what = "the defenders were encircled";
    else if (r.how === "no_move") what = "the " + game.side + " had no move";
    else if (r.how === "ply_cap") what = "the limit of " + f("ply_cap") + " moves was reached";
    else what = f("quiet_cap") + " moves in a row captured nothing";
    return what;
  }

  /* The move that reached `ply` as shown (d1-d3xc3, Kg2-g1++), and what it took. */
  function played(game, ply) {
    const m = game.moveAt(ply), report = game.reportAt(ply), before = game.pieces(ply - 1);
    const text = E.moveText(m);
    const shown = (report.kingMoved ? "K" : "") + text.slice(0, 2) + "-" + text.slice(2) +
      (report.captured.length ? "x" + report.captured.join(",") : "") +
      (report.kingHome ? "++" : report.kingTaken ? "#" : "");
    const took = report.captured.map((sq) => "the " + KINDS[before[E.squareNumber(sq)]] + " on " + sq);
    return { move: text, shown, captured: report.captured, capturing: took.length ? ", capturing " + listed(took) : "" };
  }

  function shownMoves(game) {
    const out = [];
    for (let ply = 1; ply <= game.ply; ply++) out.push(played(game, ply).shown);
    return out;
  }

  function gameText(table) {
    const lines = ["variant " + table.variant];
    if (table.start !== data.setup) lines.push("start " + table.start);
    lines.push(["moves"].concat(table.game.log().map(E.moveText)).join(" "));
    if (table.ending) {
      lines.push(table.ending.how === "agreed" ? "result agreed" : "result resign " + other(table.ending.side));
    }
    return lines.join("\n") + "\n";
  }

  /* The game as it stood after `ply` moves: a copy, for the caller to free. */
  function after(table, ply) {
    if (ply < 0 || ply > table.game.ply) {
      throw new Refused("ply must be from 0 to " + table.game.ply + ", not " + ply);
    }
    const copy = table.game.clone();
    while (copy.ply > ply) copy.undo();
    return copy;
  }

  /* brandubh/session.py's checks: for each side, the moves that would win
   * at once were it its move, the king's escape or his taking. */
  const CHECK_WORDS = { defenders: "the king can reach ", attackers: "the king can be taken" };
  const CORNER_NAMES = ["a1", "g1", "a7", "g7"];
  function checksOf(table, shown) {
    const cells = shown.pieces(), at = cells.indexOf(3);
    if (at < 0) return [];
    const king = BrandubhBoard.NAMES[at], position = shown.position(), found = [];
    for (const side of SIDES) {
      const seen = position.endsWith(" " + side[0]) ? shown : engine.game(table.fields, position.slice(0, -1) + side[0]);
      try {
        let wins = seen.legal().filter((m) => m.winner === side);
        if (side === "attackers") wins = wins.filter((m) => m.captured.includes(king));
        if (!wins.length) continue;
        const moves = wins.map((m) => E.moveText(m.move));
        const corners = moves.every((m) => CORNER_NAMES.includes(m.slice(2)));
        found.push({ side, king, moves, says: CHECK_WORDS[side] + (side === "defenders" ? (corners ? "a corner" : "the edge") : "") });
      } finally {
        if (seen !== shown) seen.free();
      }
    }
    return found;
  }

  /* What the page shows: brandubh/session.py's table_state, with api.py's Api.state's fields. */
  function state(table, ply, arrows) {
    const game = table.game;
    const shown = ply === undefined || ply === null ? game : after(table, ply);
    try {
      const atEnd = shown === game, active = !(atEnd ? over(table) : shown.over);
      const yourTurn = atEnd && active && game.side === table.you;
      let legal = [];
      if (yourTurn) {
        const cells = game.pieces();
        legal = game.legal().map((m) => {
          const text = E.moveText(m.move);
          return { from: text.slice(0, 2), to: text.slice(2), piece: KINDS[cells[m.move >> 6]],
                   captures: m.captured, wins: m.winner === game.side };
        });
      }
      const cells = shown.pieces(), pieces = {};
      cells.forEach((c, sq) => { if (c) pieces[BrandubhBoard.NAMES[sq]] = KINDS[c]; });
      const last = shown.ply > 0 ? played(shown, shown.ply) : null;
      const r = result(table, shown);
      const sentence = r ? endedHow(table, shown) : null;
      const standing = r ? "game over after " + plural(shown.ply, "move") + ": " + endedHow(table, shown, true)
        : shown.side + " (" + seatOf(table, shown.side) + ") to move; ply " + shown.ply;
      const position = shown.position();
      const board = BrandubhBoard.svg({
        position, cells: cells.map((c) => LETTERS[c] || ""), side: shown.side,
        last: last && last.move, captured: last ? last.captured : [],
        status: standing + (last ? "; last move " + last.shown : ""), over: !!r,
      }, arrows);
      return {
        id: table.id, mode: "play", label: "", variant: table.variant, you: table.you, level: table.level,
        ply: shown.ply, plies: game.ply, status: active ? "active" : "finished", to_move: active ? shown.side : null,
        your_turn: yourTurn, engine_to_move: atEnd && active && game.side !== table.you, result: sentence,
        winner: r ? r.side : null, position, pieces,
        last: last && { move: last.move, shown: last.shown, captured: last.captured },
        moves: shownMoves(game), legal, said: atEnd ? table.said : "", checks: active ? checksOf(table, shown) : [],
        board, text: gameText(table),
      };
    } finally {
      if (shown !== game) shown.free();
    }
  }

  // -- the engine's searches, in a Worker ---------------------------------------------

  let worker = null, nextId = 1;
  const pending = new Map();
  const counts = { searches: 0, inWorker: 0, stopped: 0 };

  function startWorker() {
    if (typeof root.Worker !== "function" || !root.BRANDUBH_WORKER_SOURCE) return null;
    const url = URL.createObjectURL(new Blob([root.BRANDUBH_WORKER_SOURCE], { type: "text/javascript" }));
    const w = new Worker(url);
    URL.revokeObjectURL(url);
    w.postMessage({ init: E.decodeBase64(root.BRANDUBH_WASM), data });
    w.onmessage = (event) => {
      const { id, found, error } = event.data;
      const waiting = pending.get(id);
      pending.delete(id);
      if (found && stopFlag && Atomics.load(stopFlag, 0)) counts.stopped++;
      if (waiting) error ? waiting.reject(new Refused(error, 500)) : waiting.resolve(found);
    };
    w.onerror = (event) => {
      event.preventDefault();
      stop("the engine's worker failed: " + (event.message || "no reason given"));
    };
    return w;
  }

  // A flag the Worker's searches read (web/stop_wasm.h), where the page may
  // share memory with it: a cross-origin isolated page. Not from the disk.
  const canShare = typeof SharedArrayBuffer === "function" && root.crossOriginIsolated !== false;
  let stopFlag = null;

  /* End the search under way. With a shared flag the search stops where it
   * is and the engine plays the best move it found; without one the Worker
   * is ended, and the requests waiting on it are refused. */
  function stop(why) {
    if (!why && stopFlag && pending.size) {
      Atomics.store(stopFlag, 0, 1);
      return;
    }
    if (worker) worker.terminate();
    worker = null;
    for (const waiting of pending.values()) waiting.reject(new Refused(why || "the engine was stopped", 409, { code: "stopped" }));
    pending.clear();
  }

  /* The search's answer for the game as it stood after `ply` moves. */
  function search(table, ply, budget, seed) {
    const moves = table.game.log().slice(0, ply);
    if (!worker) worker = startWorker();
    counts.searches++;
    if (worker) counts.inWorker++;
    if (!worker) {   // no Worker here: on this thread
      const copy = after(table, ply);
      try { return Promise.resolve(copy.search({ budget, seed })); } finally { copy.free(); }
    }
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      stopFlag = canShare ? new Int32Array(new SharedArrayBuffer(4)) : null;
      worker.postMessage({ id, variant: table.fields, start: table.start, moves, budget, seed, stop: stopFlag });
    });
  }

  /* A number from the table's seed and what it is for, the same each time. */
  function seedOf(table, ply, salt) {
    let h = (table.seed ^ Math.imul(ply + 1, 0x9e3779b1)) >>> 0;
    for (const ch of salt) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b) >>> 0; h ^= h >>> 13;
    return h >>> 0;
  }

  // -- what the person asks for: brandubh/session.py's Session ------------------------

  function ending(table) {
    if (!over(table)) return "";
    const r = result(table, table.game);
    const who = r.side === null ? "A draw." : r.side === table.you ? "You win." : "The engine wins.";
    return "Game over: " + endedHow(table, table.game) + ". " + who;
  }
  const said = (text, end) => text && end ? text + " " + end : text || end;

  function refuse(table, text, code) {
    throw new Refused(text, 409, { code, game: state(table) });
  }
  function done(table, text) {
    table.said = text;
    return state(table);
  }

  function whyText(table, why, from, to) {
    const cells = table.game.pieces(), piece = KINDS[cells[E.squareNumber(from)]];
    const head = from + " to " + to + ": ";
    if (why === 2) return ["no_piece", head + "there is no piece on " + from];
    if (why === 3) {
      return ["not_yours", head + "the " + piece + " on " + from + " belongs to the " +
              (piece === "attacker" ? "attackers" : "defenders") + ", and it is the " + table.game.side + "' move"];
    }
    if (why === 4) return ["same_square", head + "the " + piece + " on " + from + " has to move to another square"];
    if (why === 5) return ["not_a_line", head + "the " + piece + " on " + from + " moves along a rank or a file, and " + to + " is on neither"];
    if (why === 6) {
      const a = E.squareNumber(from), b = E.squareNumber(to);
      const step = Math.floor(a / 7) === Math.floor(b / 7) ? (b > a ? 1 : -1) : (b > a ? 7 : -7);
      for (let sq = a + step; ; sq += step) {
        if (cells[sq]) return ["blocked", head + "the " + piece + " on " + from + " is blocked by the piece on " + BrandubhBoard.NAMES[sq]];
        if (sq === b) break;
        if (sq === 24 && !table.fields[FIELDS.indexOf("throne_pass")]) {
          return ["blocked", head + "the " + piece + " on " + from + " may not cross the throne on d4: under these rules the throne blocks every piece"];
        }
      }
      return ["blocked", head + "the " + piece + " on " + from + " is blocked"];
    }
    if (why === 7) return ["throne", head + (piece === "king" ? "the king may not return to the throne" : "the king alone may stop on the throne")];
    if (why === 8) return ["corner", head + "the king alone may stop on a corner"];
    return ["off_board", head + "that is not on the board"];
  }

  function move(table, body) {
    const text = body.move;
    if (typeof text !== "string" || text.length < 1 || text.length > 24) {
      throw new Refused("move must be a move as text, d1d3 or d1-d3, not " + quote(text));
    }
    const game = table.game;
    if (!over(table) && game.side !== table.you) {
      refuse(table, "it is the engine's move (the " + other(table.you) + "), not yours: ask it for its reply", "not_your_turn");
    }
    if (over(table)) refuse(table, "the game is over: " + endedHow(table, game), "game_over");
    const m = E.parseMove(text);
    if (m < 0) refuse(table, quote(text) + " is not written as a move: give it as d1d3 or d1-d3", "not_a_move");
    const why = game.whyNot(m >> 6, m & 63);
    if (why !== 0) {
      const [code, sentence] = whyText(table, why, E.squareName(m >> 6), E.squareName(m & 63));
      refuse(table, sentence, code);
    }
    game.play(m);
    const p = played(game, game.ply);
    return done(table, said("You play " + p.shown + p.capturing + ".", ending(table)));
  }

  async function reply(table) {
    const game = table.game;
    if (over(table) || game.side === table.you) return state(table);
    const level = data.levels[String(table.level)], ply = game.ply;
    let chosen;
    const moves = game.moves();
    const chance = seedOf(table, ply, "blunder") / 4294967296;
    if (level.blunder && chance < level.blunder) {
      chosen = moves[seedOf(table, ply, "blunder move") % moves.length];
    } else {
      // A search stopped before it looked at one move has none: the first.
      chosen = (await search(table, ply, level.budget, seedOf(table, ply, "move"))).move || moves[0];
    }
    if (game.ply !== ply || over(table)) return state(table);   // taken back meanwhile
    if (game.play(chosen) !== "ok") throw new Refused("the game refused the engine's move " + E.moveText(chosen), 500);
    const p = played(game, game.ply);
    return done(table, said("The engine (" + other(table.you) + ") plays " + p.shown + p.capturing + ".", ending(table)));
  }

  function undo(table) {
    const game = table.game;
    if (table.ending && (table.ending.how === "resign" || table.ending.how === "agreed")) {
      const how = table.ending.how;
      table.ending = null;
      return done(table, "Took back the " + (how === "resign" ? "resignation." : "agreed draw."));
    }
    const first = table.start.trim().slice(-1) === "a" ? "attackers" : "defenders";
    if (game.ply === 0 || (game.ply === 1 && first !== table.you)) {
      refuse(table, "nothing to undo: you have not moved yet", "nothing_to_undo");
    }
    let taken = 0;
    while (game.undo()) {
      taken++;
      if (game.side === table.you) break;
    }
    return done(table, "Took back " + plural(taken, "move") + ".");
  }

  function resign(table) {
    if (over(table)) refuse(table, "the game is over: " + endedHow(table, table.game), "game_over");
    table.ending = { how: "resign", side: other(table.you) };
    return done(table, said("You resign.", ending(table)));
  }

  async function draw(table) {
    const game = table.game;
    if (over(table)) refuse(table, "the game is over: " + endedHow(table, game), "game_over");
    const side = other(table.you), ply = game.ply;
    const level = data.levels[String(table.level)];
    const found = await search(table, ply, level.budget, seedOf(table, ply, "draw"));
    if (game.ply !== ply || over(table)) return state(table);
    const mine = game.side === side ? found.score : -found.score;
    const setup = engine.game(table.fields);
    const start = setup.evaluate();
    setup.free();
    if (mine <= (side === "attackers" ? start : -start) - DRAW_MARGIN) {
      table.ending = { how: "agreed", side: null };
      return done(table, said("The engine accepts the draw.", ending(table)));
    }
    return done(table, "The engine declines the draw: it thinks it is not behind. Play on.");
  }

  async function analysis(table, body) {
    const game = table.game;
    let ply = body.ply;
    if (ply !== undefined && ply !== null) whole(ply, "ply", 0, game.ply);
    else ply = game.ply;
    const atEnd = body.ply === undefined || body.ply === null;
    const shown = after(table, ply);
    try {
      if ((atEnd && over(table)) || shown.over) {
        throw new Refused("nothing to analyse: the game is over: " + endedHow(table, atEnd ? game : shown), 409,
                          { code: "game_over", game: state(table, atEnd ? undefined : ply) });
      }
      const side = shown.side;
      const found = await search(table, ply, data.analysisBudget, seedOf(table, ply, "analysis"));
      const best = E.moveText(found.move);
      const line = [];
      for (const m of found.pv.length ? found.pv : [found.move]) {
        if (shown.play(m) !== "ok") break;
        line.push(played(shown, shown.ply).shown);
      }
      const mateIn = Math.abs(found.score) > WIN ? MATE - Math.abs(found.score) : null;
      const outlook = outlookOf(table, found.score, mateIn, side, table.you);
      const meaning = judged(outlook, "you", found.depth);
      return {
        best, shown: line[0], raw: found.score, for: side, outlook, depth: found.depth, nodes: found.nodes,
        mate_in: mateIn, line,
        sentence: "Best for the " + side + ": " + line[0] + " (" + meaning + "). The line: " + line.join(" ") + ".",
        game: state(table, atEnd ? undefined : ply, [[best.slice(0, 2), best.slice(2), ANALYSIS_ARROW]]),
      };
    } finally {
      shown.free();
    }
  }

  function playOn(table, body) {
    const ply = whole(body.ply === undefined ? table.game.ply : body.ply, "ply", 0, table.game.ply);
    const you = sideField(body.side === undefined ? "attackers" : body.side);
    const level = whole(body.level === undefined ? 3 : body.level, "level", 1, data.maxLevel);
    const made = newTable(table.fields, table.start, table.game.log().slice(0, ply), you, level);
    made.said = "Playing on from move " + ply + ": you have the " + you + "; the engine, level " + level +
      ", has the " + other(you) + ".";
    if (made.game.over) made.said += " The game is over there: " + endedHow(made, made.game) + ".";
    return state(made);
  }

  function newGame(body) {
    const you = sideField(body.side === undefined ? "attackers" : body.side);
    const level = whole(body.level === undefined ? 3 : body.level, "level", 1, data.maxLevel);
    const variant = body.variant === undefined ? "brandubh" : body.variant;
    if (typeof variant !== "string") {
      throw new Refused("variant must be a preset's name or a line of field=value pairs, not " + quote(variant));
    }
    const table = newTable(readVariant(variant.trim() || "brandubh"), data.setup, [], you, level);
    table.said = "You have the " + you + "; the engine, level " + level + ", has the " + other(you) + ". " +
      (you === "attackers" ? "Your move." : "The engine moves first.");
    return state(table);
  }

  /* What a search's score means to a person: brandubh/chances.py's
   * Outlook, read through the win-chance curve of the rule set's nearest
   * preset. */
  function outlookOf(table, raw, mateIn, sideToMove, viewer) {
    const sign = viewer === sideToMove ? 1 : -1;
    const make = (chance, score, winsIn, losesIn) => {
      const o = { viewer, chance: Math.round(chance * 10000) / 10000, score, wins_in: winsIn, loses_in: losesIn,
                  raw, side_to_move: sideToMove };
      o.text = score === null ? words(o, chance) : words(o, chance) + " (" + Math.round(chance * 100) + "%)";
      Object.defineProperty(o, "percent", { value: Math.round(chance * 100), enumerable: false });
      return o;
    };
    if (mateIn !== null) {
      const moverWins = raw > 0;
      const moves = moverWins ? Math.floor((mateIn + 1) / 2) : Math.max(1, Math.floor(mateIn / 2));
      const viewerWins = moverWins === (sign === 1);
      return make(viewerWins ? 1 : 0, null, viewerWins ? moves : null, viewerWins ? null : moves);
    }
    const [slope, centreAttackers, centreDefenders] = data.curves[nearest(table.fields).name];
    const attackersScore = sideToMove === "attackers" ? raw : -raw;
    let logit = slope * (attackersScore - (sideToMove === "attackers" ? centreAttackers : centreDefenders));
    if (viewer === "defenders") logit = -logit;
    const chance = logit >= 0 ? 1 / (1 + Math.exp(-logit)) : Math.exp(logit) / (1 + Math.exp(logit));
    return make(chance, Math.round(logit / data.cpSlope / 100 * 100) / 100, null, null);
  }

  function words(o, chance) {
    if (o.wins_in !== null) return "wins in " + o.wins_in;
    if (o.loses_in !== null) return "loses in " + o.loses_in;
    if (o.score === null) return chance === 1 ? "won" : chance === 0 ? "lost" : "drawn";
    const text = Math.abs(o.score).toFixed(1);
    return (o.score < 0 || Object.is(o.score, -0) ? "-" : "+") + text;
  }

  /* brandubh/session.py's judged: "+1.3 for you: a 62% chance, 6 moves deep". */
  function judged(o, whose, depth) {
    if (o.wins_in !== null || o.loses_in !== null) {
      const moves = o.wins_in !== null ? o.wins_in : o.loses_in, verb = o.wins_in !== null ? "win" : "lose";
      if (o.wins_in === 1) return whose + " " + verb + " at once";
      return whose + " " + verb + " in " + plural(moves, "move");
    }
    const p = o.percent, article = String(p).startsWith("8") || p === 11 || p === 18 ? "an" : "a";
    return words(o, o.chance) + " for " + whose + ": " + article + " " + p + "% chance, " + plural(depth, "move") + " deep";
  }

  function whole(value, name, low, high) {
    if (typeof value !== "number" || !Number.isInteger(value) || value < low || value > high) {
      throw new Refused(name + " must be a whole number from " + low + " to " + high + ", not " + quote(value));
    }
    return value;
  }
  function sideField(value) {
    if (!SIDES.includes(value)) throw new Refused("side must be 'attackers' or 'defenders', not " + quote(value));
    return value;
  }
  function fields(body, allowed) {
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw new Refused("the body must be a JSON object");
    const unknown = Object.keys(body).filter((k) => !allowed.includes(k)).sort();
    if (unknown.length) {
      throw new Refused("unknown field " + quote(unknown[0]) + " (the fields here are: " + (allowed.join(", ") || "none") + ")");
    }
    return body;
  }

  // -- puzzles: brandubh/serve/puzzles.py's routes, each move judged as ---------------
  // -- brandubh.puzzles.Attempt judges it, the ratings moved as brandubh.ratings does -----

  const R = data.ratings || {};
  const attempts = new Map(), puzzleRatings = new Map();
  const asRating = (r) => ({ rating: r[0], deviation: r[1], volatility: r[2] });
  const NEWCOMER = R.default ? asRating(R.default) : null;

  /* brandubh.ratings.update for one period of one game: `p`'s new rating after `score` against `o`. */
  function glicko(p, o, score) {
    const S = R.scale, tau = R.tau, base = NEWCOMER.rating;
    const mu = (p.rating - base) / S, phi = p.deviation / S, sigma = p.volatility;
    const muJ = (o.rating - base) / S, phiJ = o.deviation / S;
    const g = 1 / Math.sqrt(1 + 3 * phiJ * phiJ / (Math.PI * Math.PI));
    const expected = 1 / (1 + Math.exp(-g * (mu - muJ)));
    const v = 1 / (g * g * expected * (1 - expected)), gain = g * (score - expected), delta = v * gain;
    const a = Math.log(sigma * sigma);
    const f = (x) => {
      const ex = Math.exp(x);
      return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau);
    };
    let bigA = a, bigB;
    if (delta * delta > phi * phi + v) bigB = Math.log(delta * delta - phi * phi - v);
    else {
      let k = 1;
      while (f(a - k * tau) < 0) k++;
      bigB = a - k * tau;
    }
    let fA = f(bigA), fB = f(bigB);
    while (Math.abs(bigB - bigA) > R.epsilon) {
      const bigC = bigA + (bigA - bigB) * fA / (fB - fA), fC = f(bigC);
      if (fC * fB <= 0) { bigA = bigB; fA = fB; } else fA /= 2;
      bigB = bigC; fB = fC;
    }
    const newSigma = Math.exp(bigA / 2), phiStar = Math.sqrt(phi * phi + newSigma * newSigma);
    const newPhi = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
    return { rating: base + S * (mu + newPhi * newPhi * gain), deviation: S * newPhi, volatility: newSigma };
  }

  /* brandubh/serve/puzzles.py's read_player. */
  function readPlayer(value) {
    if (value === undefined || value === null) return Object.assign({}, NEWCOMER);
    const keys = value && typeof value === "object" && !Array.isArray(value) ? Object.keys(value).sort() : [];
    if (keys.join() !== "deviation,rating,volatility") {
      throw new Refused("player must be an object of rating, deviation and volatility (a Glicko-2 rating), not " + quote(value));
    }
    const bounds = { rating: [0, R.maxRating, true], deviation: [0, NEWCOMER.deviation, false], volatility: [0, 1, false] };
    for (const [name, [low, high, lowToo]] of Object.entries(bounds)) {
      const n = value[name];
      if (!(typeof n === "number" && Number.isFinite(n) && (lowToo ? low <= n : low < n) && n <= high)) {
        throw new Refused("player's " + name + " must be a number " + (lowToo ? "from " : "above ") + low +
                          " and at most " + high + ", not " + quote(n));
      }
    }
    return { rating: value.rating, deviation: value.deviation, volatility: value.volatility };
  }

  const puzzleOf = (rules, row) => ({ id: row[0], rules, position: row[1], solution: row[2].split(" "),
                                      themes: row[3] ? row[3].split(" ") : [], rating: asRating(row.slice(4)) });
  const winnerOf = (puzzle) => puzzle.position.endsWith("a") ? "attackers" : "defenders";
  const taskOf = (puzzle) => {
    const moves = (puzzle.solution.length + 1) >> 1;
    return "The " + winnerOf(puzzle) + " to move and win in " + plural(moves, "move");
  };
  const ratingOf = (puzzle) => puzzleRatings.get(puzzle.id) || puzzle.rating;

  /* A new attempt at `puzzle`: a table of its own (not one of the games). */
  function newAttempt(puzzle, player) {
    const fields = readVariant(puzzle.rules);
    let id;
    do {
      const bytes = new Uint8Array(6);
      root.crypto.getRandomValues(bytes);
      id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    } while (attempts.has(id));
    const a = { id, fields, variant: variantString(fields), start: puzzle.position, game: engine.game(fields, puzzle.position),
                you: winnerOf(puzzle), level: null, ending: null, puzzle, player, ply: 0, hinted: false, score: null,
                said: taskOf(puzzle) + ".", verdict: null, hint: null, rated: null, queue: Promise.resolve() };
    attempts.set(id, a);
    while (attempts.size > R.maxAttempts) {
      const oldest = attempts.keys().next().value;
      attempts.get(oldest).game.free();
      attempts.delete(oldest);
    }
    return a;
  }

  /* brandubh.puzzles.pick: one of the five nearest the rating not seen (the nearest again once all are). */
  function pickPuzzle(list, rating, seen) {
    const near = (ps) => ps.slice().sort((p, q) => Math.abs(p.rating.rating - rating) - Math.abs(q.rating.rating - rating)
                                          || (p.id < q.id ? -1 : 1)).slice(0, 5);
    const done = new Set(seen);
    const left = list.filter((p) => !done.has(p.id));
    const choice = near(left.length ? left : list);
    return choice[Math.floor(Math.random() * choice.length)];
  }

  function newPuzzle(body) {
    const variant = body.variant === undefined ? "brandubh" : body.variant;
    if (typeof variant !== "string") throw new Refused("variant must be a rule set's name, not " + quote(variant));
    const player = readPlayer(body.player);
    const seen = body.seen === undefined ? [] : body.seen;
    if (!Array.isArray(seen) || seen.length > R.maxSeen || !seen.every((s) => typeof s === "string")) {
      throw new Refused("seen must be a list of puzzle ids (at most " + R.maxSeen + "), not " + quote(seen));
    }
    const name = variant.trim() || "brandubh";
    const rows = (data.puzzles || {})[name];
    if (!rows || !rows.length) {
      throw new Refused("no puzzles under " + quote(name) + ": the page carries the brandubh and codingame sets' puzzles");
    }
    return puzzleState(newAttempt(pickPuzzle(rows.map((row) => puzzleOf(name, row)), player.rating, seen), player));
  }

  function finish(a) {
    const before = ratingOf(a.puzzle);
    const mine = glicko(a.player, before, a.score), its = glicko(before, a.player, 1 - a.score);
    puzzleRatings.set(a.puzzle.id, its);
    a.rated = { score: a.score, player: mine, player_before: a.player, puzzle: its, puzzle_before: before };
  }

  /* Attempt.play: the move judged right (the defence's reply played), solved, or wrong. */
  function puzzleMove(a, body) {
    const text = body.move;
    if (typeof text !== "string" || text.length < 1 || text.length > 24) {
      throw new Refused("move must be a move as text, d1d3 or d1-d3, not " + quote(text));
    }
    if (a.score !== null) throw new Refused("the attempt is over: press Next puzzle", 409);
    const game = a.game, m = E.parseMove(text);
    const legal = new Set(game.legal().map((x) => x.move));
    if (m < 0 || !legal.has(m)) throw new Refused(quote(text) + " is not a legal move of the " + game.side + " here");
    const solution = a.puzzle.solution, expected = solution[a.ply];
    game.play(m);
    a.hint = null;
    if (E.moveText(m) !== expected) {
      a.score = 0;
      a.verdict = "wrong";
      a.said = "Wrong: the move here was " + expected + ". The solution is shown.";
    } else if (++a.ply === solution.length) {
      a.score = a.hinted ? 0 : 1;
      a.verdict = "solved";
      a.said = "Solved!" + (a.hinted ? " (after a hint: it counts as a miss)" : "");
    } else {
      game.play(E.parseMove(solution[a.ply++]));
      a.verdict = "right";
      a.said = "Right. The " + other(a.you) + " answer " + played(game, game.ply).shown + ".";
    }
    if (a.score !== null) finish(a);
    return puzzleState(a);
  }

  function puzzleHint(a) {
    if (a.score !== null) throw new Refused("the attempt is over: the solution is shown", 409);
    a.hinted = true;
    const square = a.puzzle.solution[a.ply].slice(0, 2);
    a.hint = "move the " + KINDS[a.game.pieces()[E.squareNumber(square)]] + " on " + square;
    a.said = "A hint: " + a.hint + ".";
    return puzzleState(a);
  }

  function puzzleGiveUp(a) {
    if (a.score !== null) throw new Refused("the attempt is over: press Next puzzle", 409);
    a.score = 0;
    a.said = "The solution is shown.";
    finish(a);
    return puzzleState(a);
  }

  /* brandubh/serve/puzzles.py's status_line: the task while the game goes on, then how it ended. */
  function statusLine(a) {
    const r = result(a, a.game);
    if (!r) return taskOf(a.puzzle) + ".";
    return (a.verdict === "solved" ? "Solved" : "Missed") + ": " + endedWhat(a, a.game) + ". " +
      (r.side ? "The " + r.side + " win." : "A draw.");
  }

  /* brandubh/serve/puzzles.py's PuzzleRoom.state: no move of the solver's
   * marked or named as winning at once (no wins in legal, none of its
   * checks), the last move of the solution the player's to find. */
  function puzzleState(a) {
    const s = state(a), over = a.score !== null, p = a.puzzle, winner = winnerOf(p);
    return Object.assign(s, {
      mode: "puzzle", level: null, engine_to_move: false, your_turn: !over, said: a.said,
      legal: over ? [] : s.legal.map(({ wins, ...move }) => move),
      checks: s.checks.filter((check) => check.side !== winner),
      puzzle: { id: p.id, rules: p.rules, winner, moves: (p.solution.length + 1) >> 1, themes: p.themes,
                rating: ratingOf(p) },
      task: taskOf(p), status_line: statusLine(a), verdict: a.verdict, hint: a.hint, over,
      solution: over ? p.solution.slice() : null, rated: a.rated,
    });
  }

  const PUZZLE_ACTIONS = {
    move: (a, b) => puzzleMove(a, fields(b, ["move"])),
    hint: (a, b) => puzzleHint(a, fields(b, [])),
    solution: (a, b) => puzzleGiveUp(a, fields(b, [])),
  };

  function puzzleRoute(method, id, action, body) {
    if (!/^[0-9a-f]{12}$/.test(id)) throw new Refused("no puzzle attempt " + quote(id) + " here: an attempt's id is 12 hexadecimal digits", 404);
    const a = attempts.get(id);
    if (!a) throw new Refused("no puzzle attempt " + quote(id) + " here: it was never made, or it was closed (this page keeps the " + R.maxAttempts + " used last)", 404);
    if (action === undefined) { only(method, "GET"); return [200, puzzleState(a)]; }
    if (!PUZZLE_ACTIONS[action]) {
      throw new Refused("a puzzle has no " + quote(action) + ": the actions are " + Object.keys(PUZZLE_ACTIONS).join(", ") + " (POST)", 404);
    }
    only(method, "POST");
    return [200, PUZZLE_ACTIONS[action](a, body || {})];
  }

  // -- the routes: api.py's Api._route ---------------------------------------------------

  const ACTIONS = {
    move: (t, b) => move(t, fields(b, ["move"])),
    reply: (t, b) => reply(t, fields(b, [])),
    undo: (t, b) => undo(t, fields(b, [])),
    resign: (t, b) => resign(t, fields(b, [])),
    draw: (t, b) => draw(t, fields(b, [])),
    analysis: (t, b) => analysis(t, fields(b, ["ply"])),
    continue: (t, b) => playOn(t, fields(b, ["ply", "side", "level"])),
  };

  function only(method, allowed) {
    if (method !== allowed) throw new Refused(method + " is not answered here: send " + allowed, 405);
  }

  async function route(method, target, body) {
    const [path, query] = target.split("?");
    if (path === "/api") {
      only(method, "GET");
      return [200, { version: data.version || "", presets: Object.keys(data.presets),
                     levels: Object.keys(data.levels).map(Number), level_notes: data.levelNotes, sides: SIDES,
                     default_level: 3, backend: "webassembly" }];
    }
    if (path === "/api/games") {
      only(method, "POST");
      return [201, newGame(fields(body || {}, ["side", "level", "variant"]))];
    }
    if (path === "/api/puzzles") {
      only(method, "POST");
      return [201, newPuzzle(fields(body || {}, ["variant", "player", "seen"]))];
    }
    const pm = /^\/api\/puzzles\/([^/]+)(?:\/([a-z]+))?$/.exec(path);
    if (pm) return puzzleRoute(method, pm[1], pm[2], body);
    if (path === "/api/open") {
      throw new Refused("opening saved games needs brandubh serve: this page, with no server, plays games " +
                        "against the engine only", 409);
    }
    const m = /^\/api\/games\/([^/]+)(?:\/([a-z]+))?$/.exec(path);
    if (!m) throw new Refused("nothing at " + quote(path) + ": the interface is under /api", 404);
    const table = tables.get(m[1]);
    if (!/^[0-9a-f]{12}$/.test(m[1])) throw new Refused("no game " + quote(m[1]) + " here: a game's id is 12 hexadecimal digits", 404);
    if (!table) {
      throw new Refused("no game " + quote(m[1]) + " here: it was never made, or it was closed (this page keeps its " +
                        "games until it is closed or reloaded)", 404);
    }
    const action = m[2];
    if (action === undefined) {
      only(method, "GET");
      const asked = new URLSearchParams(query || "");
      let ply;
      if (asked.has("ply")) {
        const raw = asked.get("ply");
        if (!/^-?[0-9]{1,6}$/.test(raw)) throw new Refused("ply must be a whole number, not " + quote(raw));
        ply = Number(raw);
      }
      return [200, state(table, ply)];
    }
    if (action === "text") {
      only(method, "GET");
      return [200, { text: gameText(table) }];
    }
    if (!ACTIONS[action]) {
      throw new Refused("a game has no " + quote(action) + ": the actions are " + Object.keys(ACTIONS).join(", ") +
                        " (POST) and text (GET)", 404);
    }
    only(method, "POST");
    // One request at a time on a table, as the server's lock makes it.
    const run = table.queue.then(() => ACTIONS[action](table, body || {}));
    table.queue = run.catch(() => undefined);
    return [action === "continue" ? 201 : 200, await run];
  }

  async function request(method, path, body) {
    try {
      if (!ready) ready = E.load(root.BRANDUBH_WASM, data).then((made) => { engine = made; });
      await ready;
      const [status, answer] = await route(String(method).toUpperCase(), String(path), body);
      return { status, data: answer };
    } catch (error) {
      if (!(error instanceof Refused)) {
        return { status: 500, data: { error: "the engine failed: " + (error && error.message || error) } };
      }
      return { status: error.status, data: Object.assign({ error: error.message }, error.extra) };
    }
  }

  // The page's Download link points at the server's /api/games/ID/text;
  // here it gets the game text itself, as a Blob, just before it is
  // followed.
  if (root.document && root.document.addEventListener) {
    root.document.addEventListener("click", (event) => {
      const link = event.target && event.target.closest && event.target.closest("a#download");
      const text = root.document.getElementById("text");
      if (!link || !text) return;
      link.href = URL.createObjectURL(new Blob([text.value], { type: "text/plain" }));
      link.download = "brandubh-game.txt";
    }, true);
  }

  /* request: the page's requests; stop(): end the search under way;
   * counts: the searches asked for, how many ran in the Worker, and how
   * many a shared flag stopped. */
  root.brandubhBackend = {
    request, stop: () => stop(), counts,
    // For the tests: Glicko-2 as brandubh.ratings.update gives it, for one game.
    glicko,
    // For the tests: an outlook, and the sentence it makes, for a rule set.
    outlook: (variant, raw, mateIn, sideToMove, viewer, depth) => {
      const o = outlookOf({ fields: readVariant(variant) }, raw, mateIn, sideToMove, viewer);
      return { outlook: o, judged: judged(o, "you", depth) };
    },
  };
})(typeof globalThis !== "undefined" ? globalThis : this);
