// brandubh host: the page's host mode. brandubh.host.api adds this
// script after the page's own (and sets window.BRANDUBH_HOST first, so that
// the page does not start a game against the engine). It reuses the page's
// board, its marking of legal targets (mark, squareAt, state, selected),
// its busy count (setBusy), the move list, the game text and the look.
//
// Links: #play=ID&token=T holds a seat (the token is kept in this tab's
// sessionStorage and taken out of the address at once; a fragment is never
// sent to a server); #watch=ID only watches. A seat's token goes in an
// Authorization header, never in an address. #puzzle=ID opens a puzzle (the
// club's daily one, say), #puzzle=next the next near the player's rating.
//
// Puzzles are the page's own mode (its Puzzles section, its routes, its
// clicks), answered by this server for the account logged in
// (brandubh.host.puzzles): the account's rating is the club's, shown from
// the server's sentence (state.club.said), not the one the page keeps.
(function () {
  const $ = (id) => document.getElementById(id);
  document.body.classList.add("host");
  choose = hostClicked;   // the page's click plays the engine: not here (but in a puzzle, the page's own)
  step = lookAt;          // and its stepping asks brandubh serve: here, this server's ?ply=N
  const pageShowPuzzle = showPuzzle;
  showPuzzle = (s) => {   // the page's puzzle shown, with the club's word on the rating
    pageShowPuzzle(s);
    if (s.club) $("puzzlerating").textContent = s.club.said;
    document.body.dataset.puzzle = s.puzzle.id;
  };
  $("puzzles").title = "the next puzzle near your puzzle rating (the club's, logged in; a guest's are unrated)";

  let game = null;      // the server's last state of the game shown
  let gameId = null;
  let token = null;     // this page's seat's token, or null when watching
  let mySide = null;    // the side it holds
  let source = null;    // the game's event stream
  let received = 0;     // when the last state came (performance.now())
  let notes = {};
  let looking = null;   // the ply looked back at, or null: the game as it stands
  let lookups = 0;      // look-backs asked for: the answer to an older one, come late, is dropped

  function element(tag, attributes, text) {
    const made = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) made.setAttribute(name, value);
    if (text !== undefined) made.textContent = text;
    return made;
  }

  // -- the panels, built once ----------------------------------------------------------------
  const panel = element("section", { id: "host-game" });
  panel.innerHTML = `
    <h2 id="host-title">Game</h2>
    <div id="host-clocks">
      <div class="host-clock" data-side="attackers"><span class="who"></span><span class="time"></span></div>
      <div class="host-clock" data-side="defenders"><span class="who"></span><span class="time"></span></div>
    </div>
    <div class="row" id="host-actions">
      <button id="host-draw">Offer a draw</button>
      <button id="host-takeback">Ask to take back</button>
      <button id="host-resign">Resign</button>
    </div>
    <div class="row" id="host-answer" hidden>
      <span id="host-question"></span>
      <button id="host-yes">Accept</button>
      <button id="host-no">Decline</button>
    </div>
    <div id="host-links"></div>
    <div class="row"><a class="button" href="#" id="host-another">Another game</a></div>`;
  const create = element("section", { id: "host-new" });
  create.innerHTML = `
    <h2>New game</h2>
    <div class="row">
      <label>You play <select id="host-side"><option value="attackers">the attackers</option>
        <option value="defenders">the defenders</option><option value="random">either, by lot</option></select></label>
    </div>
    <div class="row">
      <label>against <select id="host-opponent"><option value="invite">a player you invite (a person or a program)</option>
        <option value="bot">the server's bot</option></select></label>
      <label id="host-level-label" hidden>level <select id="host-level"></select></label>
    </div>
    <div class="row">
      <label>clock <select id="host-clock"></select></label>
      <label>rules <input id="host-rules" type="text" list="presets" value="brandubh"></label>
    </div>
    <div class="row"><button id="host-create">Make the game</button></div>`;
  const done = element("section", { id: "host-finished" });
  done.innerHTML = `<h2>Finished games</h2><ol id="host-list"></ol>`;
  const right = $("right");
  right.insertBefore(panel, right.firstChild);
  right.insertBefore(create, panel.nextSibling);
  // The Puzzles section before New game: in a puzzle, its buttons and the rating come next to the board.
  right.insertBefore($("puzzles").closest("section"), create);
  right.appendChild(done);
  done.hidden = true;   // until there is a finished game to list
  // The clocks under the board, where a player looks (on a phone too).
  $("boardwrap").after($("host-clocks"));

  // -- requests -------------------------------------------------------------------------------
  // The page's own request(), with the seat's token where the page holds one.
  const call = (method, path, body) => request(method, path, body, token ? { Authorization: "Bearer " + token } : {});

  // -- showing a game -----------------------------------------------------------------------------
  function clockText(ms) {
    if (ms === null || ms === undefined) return "";
    const tenths = Math.max(0, Math.floor(ms / 100));
    const seconds = Math.floor(tenths / 10);
    const minutes = Math.floor(seconds / 60);
    const s = String(seconds % 60).padStart(2, "0");
    return seconds < 10 ? minutes + ":" + s + "." + (tenths % 10) : minutes + ":" + s;
  }

  function tick() {
    if (!game) return;
    for (const box of document.querySelectorAll(".host-clock")) {
      const side = box.dataset.side;
      let left = game.clocks ? game.clocks[side] : null;
      if (left !== null && game.running === side) left -= performance.now() - received;
      // Written only when it changes: a text set ten times a second, the same, costs the page a
      // layout each time (and a screen reader an announcement).
      const text = game.clocks ? clockText(left) : "\u2014", shown = box.querySelector(".time");
      if (shown.textContent !== text) shown.textContent = text;
      box.classList.toggle("running", game.running === side);
    }
  }
  setInterval(tick, 100);

  // Who holds a side: a club account's name and its rating as the game began ("ann, 1620 ± 80"),
  // or the server's bot and its level; put in the page as text only (a name is never markup).
  function seatName(side) {
    const seat = game.seats[side];
    const who = seat.name ? seat.name + (seat.rating ? ", " + seat.rating : "")
      : seat.kind === "bot" ? "bot, level " + seat.level : "";
    return side[0].toUpperCase() + side.slice(1) + (side === mySide ? " (you)" : "") + (who ? ": " + who : "");
  }

  function title() {
    const a = game.seats.attackers.name, d = game.seats.defenders.name;
    if (a && d) return a + " v " + d + (mySide ? "" : " (watching)");
    return mySide ? "Your game" : "Watching a game";
  }

  function statusText() {
    if (game.result) return "Game over: " + game.result + ".";
    if (!mySide) return "Watching: the " + game.to_move + " to move.";
    if (game.to_move === mySide) return "Your move (you have the " + mySide + ").";
    return "The " + game.to_move + " to move; you have the " + mySide + ".";
  }

  // The game as it stands (the server's last state): its clocks, seats, offers and text; and
  // its board, unless the page is looking back at an earlier one (then that is asked for again,
  // with the game's new length).
  function showGame(s) {
    if (game && s.id === game.id && s.version < game.version) return;   // an older state, late
    soundOf(game, s);
    game = s;
    received = performance.now();
    document.body.dataset.status = s.status;
    document.body.dataset.version = String(s.version);
    document.body.dataset.side = mySide || "";
    $("rules").textContent = "rules: " + s.variant + ", " + (s.clock ? "clock " + s.clock : "untimed");
    $("host-title").textContent = title();
    for (const box of document.querySelectorAll(".host-clock")) {
      // Written only when it changes, as the clocks' times are: every state names the same seats.
      const who = box.querySelector(".who"), name = seatName(box.dataset.side);
      if (who.textContent !== name) who.textContent = name;
      who.title = name;   // the whole of it, where it is cut short
    }
    $("text").value = s.text;
    $("download").href = "/api/host/games/" + s.id + "/text";
    const on = s.status === "active";
    $("host-actions").hidden = !mySide || !on;
    $("host-draw").disabled = !!s.draw_offer;
    $("host-takeback").disabled = !!s.takeback || s.ply === 0;
    const question = !mySide || !on ? null
      : s.draw_offer && s.draw_offer !== mySide ? ["draw", "The " + s.draw_offer + " offer a draw."]
      : s.takeback && s.takeback !== mySide ? ["takeback", "The " + s.takeback + " ask to take back their last move."]
      : null;
    $("host-answer").hidden = !question;
    $("host-answer").dataset.about = question ? question[0] : "";
    $("host-question").textContent = question ? question[1] : "";
    if (looking !== null && looking < s.plies) lookAt(looking);
    else { looking = null; lookups++; showBoard(s); }
    tick();
    if (!on && source) { source.close(); source = null; loadFinished(); }
  }

  // A board of the game: as it stands, or as it stood after `s.ply` of its `s.plies` moves (the
  // page's own stepper, move list and marks; no move can be picked there).
  function showBoard(s) {
    const back = s.ply < s.plies;
    document.body.dataset.ply = String(s.ply);
    document.body.classList.toggle("looking", back);
    $("board").innerHTML = s.board;
    $("status").textContent = back ? "Looking back at move " + s.ply + " of " + s.plies + ": the game goes on at move "
      + s.plies + "." : statusText();
    $("message").textContent = back ? (s.last ? "Move " + s.ply + ": " + s.last.shown : "The start of the game.") : s.said || "";
    $("message").className = "";
    listMoves(s.moves, s.ply, null);
    showStepper(s.ply, s.plies);
    // The page's own marking of legal targets, with this seat's moves only, at the game's end only.
    const on = s.status === "active" && !back;
    state = { legal: mySide && on && s.to_move === mySide ? s.legal : [], pieces: s.pieces, checks: s.checks,
              ply: s.ply, plies: s.plies };
    viewFrom(mySide);
    if (selected && !state.legal.some((m) => m.from === selected)) selected = null;
    mark();
  }

  // The page's step (the stepper, the move list, the arrow keys, Home and End): the board after
  // `ply` moves, asked of the server (GET ...?ply=N); the game's end is the game as it stands.
  async function lookAt(ply) {
    if (!game) return;
    const to = Math.max(0, Math.min(game.plies, ply));
    const ask = ++lookups;
    if (to === game.plies) { looking = null; showBoard(game); return; }
    // Looking back from the moment it is asked: a state of the game that arrives before the
    // answer (the echo of a move on the event stream) asks for this ply again, rather than
    // showing the game as it stands and dropping the answer.
    looking = to;
    const id = game.id;
    const { status, data } = await call("GET", "/api/host/games/" + id + "?ply=" + to);
    if (ask !== lookups || !game || game.id !== id) return;
    if (status !== 200) {
      looking = null;
      $("message").textContent = data.error; $("message").className = "refused"; return;
    }
    showBoard(data);
  }

  function showLinks() {
    const box = $("host-links");
    box.textContent = "";
    const origin = location.origin + "/";
    const links = [["Watch (anyone, no seat)", origin + "#watch=" + gameId]];
    const invite = gameId && sessionStorage.getItem("brandubh-host-invite:" + gameId);
    if (invite) links.unshift(["Send this to the other player", origin + "#play=" + gameId + "&token=" + invite]);
    if (token) links.push(["Your own seat (keep it to yourself)", origin + "#play=" + gameId + "&token=" + token]);
    for (const [label, url] of links) {
      const row = element("div", { class: "row host-link" });
      row.appendChild(element("span", { class: "note" }, label + ":"));
      const input = element("input", { type: "text", readonly: "", value: url, "aria-label": label });
      row.appendChild(input);
      const copy = element("button", {}, "Copy");
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(url); } catch (error) { input.select(); document.execCommand("copy"); }
      });
      row.appendChild(copy);
      box.appendChild(row);
    }
  }

  // -- opening a game from the address -----------------------------------------------------------
  async function openFromAddress() {
    const asked = new URLSearchParams(location.hash.slice(1));
    const id = asked.get("play") || asked.get("watch");
    if (source) { source.close(); source = null; }
    game = null; gameId = null; token = null; mySide = null; selected = null; looking = null; lookups++;
    document.body.classList.toggle("host-open", !!id);
    if (state && state.mode === "puzzle") { state = null; document.body.classList.remove("puzzle"); }
    if (!id && asked.get("puzzle")) { await openPuzzleAsked(asked.get("puzzle")); return; }
    if (!id) { document.body.dataset.status = "none"; loadFinished(); return; }
    gameId = id;
    if (asked.get("play")) {
      if (asked.get("token")) {
        sessionStorage.setItem("brandubh-host-seat:" + id, asked.get("token"));
        history.replaceState(null, "", "#play=" + id);   // the token out of the address bar
      }
      token = sessionStorage.getItem("brandubh-host-seat:" + id);
      // Without a token, the club's session (its cookie, sent with every request) may hold the seat: token "".
      const { status, data } = await call("GET", "/api/host/games/" + id + "/seat");
      if (status === 200) { mySide = data.side; if (token === null) token = ""; }
      else if (token) { token = null; $("message").textContent = "This link holds no seat here: " + data.error; }
    }
    showLinks();
    const { status, data } = await call("GET", "/api/host/games/" + id);
    if (status !== 200) { $("status").textContent = data.error; return; }
    showGame(data);
    if (data.status === "active") follow(id);
  }

  function follow(id) {
    source = new EventSource("/api/host/games/" + id + "/events");
    source.onmessage = (event) => { if (gameId === id) showGame(JSON.parse(event.data)); };
  }

  async function act(action, body) {
    if (!game || token === null) return;
    const { status, data } = await call("POST", "/api/host/games/" + game.id + "/" + action, body);
    if (status === 200) { showGame(data); return; }
    if (data.game) showGame(data.game);
    $("message").textContent = "Refused: " + data.error;
    $("message").className = "refused";
  }

  // A puzzle from the address: the one with this id, or the next near the player's rating.
  async function openPuzzleAsked(id) {
    await loadFinished();   // first: the page's openPuzzle waits for no request, it does nothing while one is on its way
    if (id === "next") { await openPuzzle(); return; }
    const { status, data } = await call("POST", "/api/puzzles", { puzzle: id });
    if (status === 201) show(data); else { $("message").textContent = "Refused: " + data.error; $("message").className = "refused"; }
  }

  // One move sent at a time (a click while the last is on its way sends no second). Its own flag, not
  // the page's busy count, as makeGame's: the finished games' list loading in the background dropped
  // a move clicked meanwhile without a word.
  let moving = false;
  async function hostClicked(name) {
    if (state && state.mode === "puzzle") { await clicked(name); return; }   // the page's own puzzle clicks
    if (!game || moving) return;
    if (looking !== null) {
      $("message").textContent = "You are looking back at move " + looking + ": press Back to the game (or End) to play.";
      return;
    }
    if (!mySide || game.status !== "active" || game.to_move !== mySide) {
      $("message").textContent = !mySide ? "You are watching this game." : game.result ? "The game is over." : "Wait for the " + game.to_move + "' move.";
      return;
    }
    const starts = new Set(state.legal.map((m) => m.from));
    if (selected === null || name === selected || (starts.has(name) && !state.legal.some((m) => m.from === selected && m.to === name))) {
      selected = selected === name || !starts.has(name) ? null : name;
      mark();
      return;
    }
    const move = selected + name;
    selected = null;
    mark();
    moving = true;
    try { await act("move", { move }); } finally { moving = false; }
  }

  async function loadFinished() {
    const { status, data } = await call("GET", "/api/host/games");
    if (status !== 200) return;
    const list = $("host-list");
    list.textContent = "";
    for (const g of data.finished.slice(0, 20)) {
      const item = element("li");
      item.appendChild(element("a", { href: "#watch=" + g.id }, g.result + " (" + g.plies + " moves, " + (g.clock || "untimed") + ")"));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(element("a", { href: "/api/host/games/" + g.id + "/text", download: "" }, "text"));
      list.appendChild(item);
    }
    done.hidden = !data.finished.length;
  }

  // One game made at a time (a second click while the first is on its way makes no second game).
  // Its own flag, not the page's busy count: that also counts the finished games' list loading in
  // the background, and a click then was dropped without a word.
  let making = false;
  async function makeGame() {
    if (making) return;
    making = true;
    try {
      const body = { side: $("host-side").value, opponent: $("host-opponent").value, clock: $("host-clock").value,
                     variant: $("host-rules").value };
      if (body.opponent === "bot") body.level = Number($("host-level").value);
      token = null;
      const { status, data } = await call("POST", "/api/host/games", body);
      if (status !== 201) { $("message").textContent = "Refused: " + data.error; $("message").className = "refused"; return; }
      if (data.invite_token) sessionStorage.setItem("brandubh-host-invite:" + data.id, data.invite_token);
      location.hash = "#play=" + data.id + "&token=" + data.token;   // hashchange opens it
    } finally {
      making = false;
    }
  }

  async function start() {
    const { data } = await call("GET", "/api/host");
    notes = data.level_notes || {};
    for (const clock of data.clocks || ["untimed"]) $("host-clock").appendChild(element("option", { value: clock }, clock));
    $("host-clock").value = "5+3";
    for (const level of data.levels || []) $("host-level").appendChild(element("option", { value: String(level) }, levelText(level, notes[level])));
    $("host-level").value = "3";
    for (const preset of data.presets || []) $("presets").appendChild(element("option", { value: preset }));
    await openFromAddress();
  }

  $("host-create").addEventListener("click", makeGame);
  $("host-opponent").addEventListener("change", () => { $("host-level-label").hidden = $("host-opponent").value !== "bot"; });
  $("host-draw").addEventListener("click", () => act("draw-offer"));
  $("host-takeback").addEventListener("click", () => act("takeback-offer"));
  $("host-resign").addEventListener("click", () => { if (confirm("Resign this game?")) act("resign"); });
  $("host-yes").addEventListener("click", () => act($("host-answer").dataset.about + "-accept"));
  $("host-no").addEventListener("click", () => act($("host-answer").dataset.about + "-decline"));
  $("live").addEventListener("click", () => { if (game) lookAt(game.plies); });
  $("host-another").addEventListener("click", (event) => { event.preventDefault(); location.hash = ""; });
  window.addEventListener("hashchange", openFromAddress);
  start();
})();
