// The club's page of brandubh host: log in or register, post and take
// seeks, watch the games in play, read a player's page. Every name and
// text from the server is put in the page as text (textContent), never as
// markup, and the page runs under a policy that allows no inline script.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  let me = null;          // the name logged in, or null
  let lobbyStream = null;
  const opened = new Set();   // games of mine already seen in play (a new one is opened at once)
  // The lobby comes again at every move of every game in play: what is shown is rebuilt only where it
  // changed (a button replaced under the pointer loses its click), and the tournaments are listed
  // again only when the lobby's count of other news moves.
  let seeksShown = null, playingShown = null, newsSeen = null;
  // Each part of the page (the lobby, the tournaments' list, the view shown) numbers what it asks for:
  // answers can come back in any order, and one asked for before the part's latest news is older than
  // it, so it is dropped instead of shown over the newer (a lobby fetched as the page opened, answered
  // after the stream's news of a game begun, would hide that game for good).
  const asked = { lobby: 0, tournaments: 0, view: 0 };
  const ask = (part) => ++asked[part];
  const newest = (part, number) => asked[part] === number;

  function element(tag, attributes, text) {
    const made = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) made.setAttribute(key, value);
    if (text !== undefined && text !== null) made.textContent = String(text);
    return made;
  }

  // A table or list with nothing in it says so (its data-empty sentence, as text) instead of
  // showing an empty frame: the sentence is the next element, made once.
  function sayIfEmpty(box) {
    const count = box.tBodies ? box.tBodies[0].rows.length : box.children.length;
    let note = box.nextElementSibling;
    if (!note || !note.classList.contains("empty")) {
      note = element("p", { class: "empty" }, box.dataset.empty);
      box.after(note);
    }
    box.hidden = count === 0;
    note.hidden = count > 0;
  }

  function say(text, refused) {
    $("message").textContent = text || "";
    $("message").className = refused ? "refused" : "";
  }

  async function call(method, path, body) {
    const options = { method, headers: {}, credentials: "same-origin" };
    if (method === "POST") {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body || {});
    }
    const answer = await fetch(path, options);
    let data = {};
    try { data = await answer.json(); } catch (error) { data = { error: "the server's answer could not be read" }; }
    return { status: answer.status, data };
  }

  // -- who is logged in ---------------------------------------------------------------------------
  function showMe(name) {
    me = name;
    document.body.dataset.me = name || "";
    $("login").hidden = !!name;
    $("account").hidden = !name;
    $("password-form").hidden = true;
    // Seeks and tournaments are an account's: a visitor is told how to get one instead of a form the
    // server would refuse.
    for (const form of ["seek-form", "tournament-form"]) $(form).hidden = !name;
    for (const note of document.querySelectorAll(".log-in-first")) note.hidden = !!name;
    if (name) { $("my-page").textContent = name; $("my-page").href = "#player=" + encodeURIComponent(name); }
  }

  async function enter(path) {
    const { status, data } = await call("POST", path, { name: $("name").value, password: $("password").value });
    if (status === 200 || status === 201) { $("password").value = ""; showMe(data.name); say("Welcome, " + data.name + "."); route(); }
    else say(data.error, true);
  }

  // -- the lobby ------------------------------------------------------------------------------------
  // Today's puzzle (the same for everyone on a UTC day): its task and rating, a link to solve it on the page.
  function showDaily(daily) {
    $("daily").hidden = !daily;
    if (!daily) return;
    $("daily-task").textContent = daily.task + ".";
    $("daily-link").href = daily.link;
    $("daily-about").textContent = daily.date + " (UTC): puzzle " + daily.id + ", " + daily.rules + ", rated "
      + Math.round(daily.rating.rating) + " \u00b1 " + Math.round(daily.rating.deviation)
      + (daily.themes.length ? "; themes: " + daily.themes.join(", ") : "") + ".";
  }

  function showLobby(lobby) {
    showDaily(lobby.daily);
    const seeks = JSON.stringify([me, lobby.seeks]);
    if (seeks !== seeksShown) { seeksShown = seeks; showSeeks(lobby.seeks); }
    showPlaying(lobby.playing);
    document.body.dataset.loaded = "1";
  }

  function showSeeks(seeks) {
    const body = $("seeks").tBodies[0];
    body.replaceChildren();
    for (const seek of seeks) {
      const row = element("tr", { "data-seek": seek.id });
      row.append(element("td", {}, seek.name), element("td", {}, seek.rating || ""), element("td", {}, seek.variant),
                 element("td", {}, seek.clock), element("td", {}, seek.side === "random" ? "by lot" : seek.side),
                 element("td", {}, (seek.rated ? "rated" : "casual") + (seek.range ? " " + seek.range[0] + "-" + seek.range[1] : "")));
      const cell = element("td");
      if (me && seek.name === me) {
        const cancel = element("button", { type: "button" }, "Cancel");
        cancel.addEventListener("click", () => seekAction(seek.id, "cancel"));
        cell.append(cancel);
      } else if (me) {
        const take = element("button", { type: "button", class: "take" }, "Play");
        take.addEventListener("click", () => seekAction(seek.id, "take"));
        cell.append(take);
      }
      row.append(cell);
      body.append(row);
    }
    sayIfEmpty($("seeks"));
  }

  // The games in play: the list rebuilt when a game begins or ends, else each one's move count set.
  function showPlaying(playing) {
    const list = $("playing");
    const games = JSON.stringify([me, playing.map((game) => ({ ...game, plies: 0 }))]);
    if (games === playingShown) {
      playing.forEach((game, i) => { list.children[i].querySelector(".plies").textContent = movesText(game); });
      return;
    }
    playingShown = games;
    list.replaceChildren();
    for (const game of playing) {
      const a = game.seats.attackers.name || "a bot", d = game.seats.defenders.name || "a bot";
      const item = element("li", { "data-game": game.id });
      item.append(element("a", { href: "/#watch=" + game.id }, a + " (attackers) v " + d + " (defenders)"),
                  element("span", { class: "plies" }, movesText(game)));
      list.append(item);
      if (me && (a === me || d === me) && !opened.has(game.id)) {
        opened.add(game.id);
        if (document.body.dataset.loaded === "1") { location.href = "/#play=" + game.id; return; }
      }
    }
    sayIfEmpty(list);
  }

  const movesText = (game) => " " + (game.clock || "untimed") + (game.rated ? ", rated" : "") + ", " + game.plies
    + (game.plies === 1 ? " move" : " moves");

  async function seekAction(id, action) {
    const { status, data } = await call("POST", "/api/host/seeks/" + id + "/" + action);
    if (status === 201 && action === "take") { opened.add(data.id); location.href = "/#play=" + data.id; return; }
    if (status !== 200) say(data.error, true);
  }

  function followLobby() {
    if (lobbyStream) return;
    lobbyStream = new EventSource("/api/host/lobby/events");
    lobbyStream.onmessage = (event) => {
      ask("lobby");   // the lobby now: newer than any asked for before
      const lobby = JSON.parse(event.data);
      showLobby(lobby);
      if (lobby.news !== newsSeen && document.body.dataset.view === "lobby") listTournaments();
      newsSeen = lobby.news;
    };
  }

  async function postSeek(event) {
    event.preventDefault();
    const fields = { variant: $("seek-variant").value, clock: $("seek-clock").value, side: $("seek-side").value,
                     rated: $("seek-rated").checked };
    if (fields.rated && $("seek-low").value !== "" && $("seek-high").value !== "")
      fields.range = [Number($("seek-low").value), Number($("seek-high").value)];
    const { status, data } = await call("POST", "/api/host/seeks", fields);
    if (status === 201) say("Your seek is posted: it waits in the list for another player.");
    else say(data.error, true);
  }

  // -- a player's page ------------------------------------------------------------------------------
  async function showPlayer(name) {
    const number = ask("view");
    const { status, data } = await call("GET", "/api/host/players/" + encodeURIComponent(name));
    if (!newest("view", number)) return;   // another view was asked for meanwhile
    if (status !== 200) { say(data.error, true); return; }
    $("player-name").textContent = data.name + (data.kind === "bot" ? " (bot)" : "");
    const move = $("your-move");
    move.replaceChildren();
    if (data.your_move.length) {
      move.append(element("strong", {}, "Your move: "));
      for (const id of data.your_move) move.append(element("a", { href: "/#play=" + id }, id));
    }
    const ratings = $("ratings"), graphs = $("graphs");
    ratings.replaceChildren(); graphs.replaceChildren();
    for (const [pool, r] of Object.entries(data.ratings)) {
      ratings.append(element("li", { "data-pool": pool }, pool + ": " + r.shown + (r.provisional ? " (provisional)" : "") + ", " + r.games + (r.games === 1 ? " game" : " games")));
      graphs.append(element("img", { alt: data.name + "'s rating, " + pool,
                                     src: "/api/host/players/" + encodeURIComponent(data.name) + "/rating.svg?pool=" + encodeURIComponent(pool) }));
    }
    sayIfEmpty(ratings);
    // The puzzle rating, moved by each rated attempt, and its graph.
    const puzzles = data.puzzles;
    $("puzzle-rating").textContent = puzzles ? "Puzzle rating: " + puzzles.shown + (puzzles.provisional ? " (provisional)" : "")
      + ", " + puzzles.attempts + (puzzles.attempts === 1 ? " puzzle" : " puzzles") + " rated." : "No puzzle rated yet.";
    $("puzzle-graph").replaceChildren();
    if (puzzles) $("puzzle-graph").append(element("img", { alt: data.name + "'s puzzle rating",
      src: "/api/host/players/" + encodeURIComponent(data.name) + "/rating.svg?pool=puzzles" }));
    const record = $("record").tBodies[0];
    record.replaceChildren();
    for (const [other, tally] of Object.entries(data.record)) {
      const row = element("tr");
      row.append(element("td", {}, other), element("td", {}, tally.won), element("td", {}, tally.drawn), element("td", {}, tally.lost));
      record.append(row);
    }
    sayIfEmpty($("record"));
    const games = $("games").tBodies[0];
    games.replaceChildren();
    for (const game of data.games) {
      const row = element("tr", { "data-game": game.id });
      const link = element("td");
      link.append(element("a", { href: game.review }, game.result ? "review" : "watch"));
      row.append(element("td", {}, game.opponent || ""), element("td", {}, game.side), element("td", {}, game.clock || "untimed"),
                 element("td", {}, game.rated || (game.flag ? "flagged: " + game.flag : "casual")),
                 element("td", {}, game.result || "in play"), link);
      games.append(row);
    }
    sayIfEmpty($("games"));
    document.body.dataset.shown = data.name;
  }

  // -- tournaments --------------------------------------------------------------------------------
  async function listTournaments() {
    const number = ask("tournaments");
    const { data } = await call("GET", "/api/host/tournaments");
    if (!newest("tournaments", number)) return;   // a newer list is on its way
    const body = $("tournament-list").tBodies[0];
    body.replaceChildren();
    for (const t of data.tournaments || []) {
      const row = element("tr", { "data-tournament": t.id });
      const name = element("td");
      name.append(element("a", { href: "#tournament=" + t.id }, t.name));
      const cell = element("td");
      if (me && t.state === "open") {
        const join = element("button", { type: "button", class: "join" }, "Join");
        join.addEventListener("click", async () => {
          const { status, data: answer } = await call("POST", "/api/host/tournaments/" + t.id + "/join");
          if (status === 200) { say("You are in " + answer.name + "."); listTournaments(); } else say(answer.error, true);
        });
        cell.append(join);
      }
      row.append(name, element("td", {}, t.players + " of " + t.size), element("td", {}, t.clock + (t.rated ? ", rated" : "")),
                 element("td", {}, t.state), cell);
      body.append(row);
    }
    sayIfEmpty($("tournament-list"));
  }

  async function makeTournament(event) {
    event.preventDefault();
    const engines = $("t-engines").value.split(",").map((n) => n.trim()).filter((n) => n);
    const fields = { name: $("t-name").value, size: Number($("t-size").value), clock: $("t-clock").value,
                     rated: $("t-rated").checked, engines };
    const { status, data } = await call("POST", "/api/host/tournaments", fields);
    if (status === 201) { say("The tournament is made: it begins when full."); listTournaments(); }
    else say(data.error, true);
  }

  async function showTournament(id) {
    const number = ask("view");
    const { status, data } = await call("GET", "/api/host/tournaments/" + encodeURIComponent(id));
    if (!newest("view", number)) return;
    if (status !== 200) { say(data.error, true); return; }
    $("t-title").textContent = data.name;
    $("t-about").textContent = data.variant + ", " + data.clock + (data.rated ? ", rated" : ", casual") + "; " + data.state +
      "; " + data.players.length + " of " + data.size + " players: " + data.players.join(", ") + "; " + data.rounds + " rounds, every pairing with both sides.";
    const table = $("standings").tBodies[0];
    table.replaceChildren();
    data.standings.forEach((row, i) => {
      const line = element("tr");
      const who = element("td");
      who.append(element("a", { href: "#player=" + encodeURIComponent(row.name) }, row.name));
      line.append(element("td", {}, i + 1), who, element("td", {}, row.points), element("td", {}, row.sonneborn_berger), element("td", {}, row.games));
      table.append(line);
    });
    sayIfEmpty($("standings"));
    const games = $("t-games").tBodies[0];
    games.replaceChildren();
    for (const game of data.games) {
      const row = element("tr", { "data-game": game.id });
      const link = element("td");
      link.append(element("a", { href: "/#" + (me && (game.attackers === me || game.defenders === me) && game.score === null ? "play=" : "watch=") + game.id },
                          game.score === null ? "open" : "review"));
      row.append(element("td", {}, game.round), element("td", {}, game.attackers), element("td", {}, game.defenders),
                 element("td", {}, game.result || "in play"), link);
      games.append(row);
    }
    sayIfEmpty($("t-games"));
    document.body.dataset.tournament = data.state;
  }

  function route() {
    const asked = new URLSearchParams(location.hash.slice(1));
    const player = asked.get("player"), tournament = asked.get("tournament");
    const view = player ? "player" : tournament ? "tournament" : "lobby";
    $("lobby").hidden = view !== "lobby";
    if (view !== "lobby") $("daily").hidden = true;
    $("tournaments").hidden = view !== "lobby";
    $("tournament").hidden = view !== "tournament";
    $("player").hidden = view !== "player";
    document.body.dataset.view = view;
    if (player) showPlayer(player);
    else if (tournament) showTournament(tournament);
    else {
      ask("view");
      const number = ask("lobby");
      call("GET", "/api/host/lobby").then(({ status, data }) => {
        if (!newest("lobby", number)) return;   // the stream brought a newer lobby meanwhile
        if (status === 200) showLobby(data); else say(data.error, true);
      });
      listTournaments();
    }
  }

  async function start() {
    const { data: info } = await call("GET", "/api/host");
    for (const name of info.presets) $("seek-variant").append(element("option", { value: name }, name));
    for (const clock of info.clocks.filter((c) => c !== "untimed").concat(["1d", "3d", "7d", "untimed"]))
      $("seek-clock").append(element("option", { value: clock }, clock.endsWith("d") ? clock.slice(0, -1) + " days a move" : clock));
    $("seek-clock").value = "5+3";
    for (const option of $("seek-clock").options) $("t-clock").append(element("option", { value: option.value }, option.textContent));
    $("t-clock").value = "10+5";
    const { data } = await call("GET", "/api/host/me");
    showMe(data.name);
    $("login").addEventListener("submit", (event) => { event.preventDefault(); enter("/api/host/login"); });
    $("do-register").addEventListener("click", () => enter("/api/host/register"));
    $("do-logout").addEventListener("click", async () => { await call("POST", "/api/host/logout"); showMe(null); route(); });
    $("show-password").addEventListener("click", () => { $("password-form").hidden = !$("password-form").hidden; });
    $("password-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const { status, data: answer } = await call("POST", "/api/host/password", { old: $("old-password").value, new: $("new-password").value });
      say(status === 200 ? "Your password is changed; your other sessions are ended." : answer.error, status !== 200);
      if (status === 200) $("password-form").hidden = true;
    });
    $("seek-form").addEventListener("submit", postSeek);
    $("tournament-form").addEventListener("submit", makeTournament);
    window.addEventListener("hashchange", route);
    route();
    followLobby();
    document.body.dataset.ready = "1";
  }

  start();
})();
