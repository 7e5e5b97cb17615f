/* The board as an SVG picture, for the static page's back end
 * (web/backend.js): the picture brandubh/views/svg.py draws for the page
 * of `brandubh serve` (its size left out, so it fills the page's frame),
 * shape for shape and class for class, so the page looks and reads the
 * same with either back end. tests/test_web_page.py compares the two.
 *
 *   BrandubhBoard.svg({ position, cells, side, last, captured, status, over }, arrows)
 *
 * cells: 49 of "a", "d", "k" or "" by square number; last: the last move
 * stored ("d2c2") or null; captured: the square names it emptied; arrows:
 * [[from, to, colour]]; over: the game has ended (no side to move is
 * shown). */
(function (root) {
  "use strict";

  const SQUARE = 40, MARGIN = 20;
  const C = {
    frame: "#5c3d21", coordinate: "#f3e3c0", square: "#ecd6a7", special: "#c9a067", line: "#7a5a36",
    attacker: "#1f1f1f", attacker_ring: "#6b6b6b", defender: "#fbf8ef", defender_ring: "#9a9386",
    outline: "#1f1f1f", king: "#f1bf2c", crown: "#1f1f1f", lastmove: "#f6d743", mark: "#d63b3b",
    captured: "#c62828", arrow: "#15803d",
  };
  const CORNERS = [0, 6, 42, 48], THRONE = 24;
  const NAMES = [];
  for (let sq = 0; sq < 49; sq++) NAMES.push("abcdefg"[sq % 7] + String(Math.floor(sq / 7) + 1));
  const INDEX = {};
  NAMES.forEach((name, sq) => { INDEX[name] = sq; });

  /* A coordinate as Python's f"{value:.2f}" with the zeros taken off. */
  function num(value) {
    let text = value.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
    return text === "-0" ? "0" : text;
  }
  function esc(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }
  function attr(text) { return '"' + esc(text).replace(/"/g, "&quot;") + '"'; }

  function svg(f, arrows) {
    const full = 7 * SQUARE + 2 * MARGIN;
    const corner = (sq) => [MARGIN + (sq % 7) * SQUARE, MARGIN + (6 - Math.floor(sq / 7)) * SQUARE];
    const centre = (sq) => { const [x, y] = corner(sq); return [x + SQUARE / 2, y + SQUARE / 2]; };
    const out = [
      `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 ${full} ${full}">`,
      `<title>brandubh: ${esc(f.position)} (${f.over ? "game over" : f.side + " to move"})</title>`,
      `<desc>${esc(f.status)}</desc>`,
      `<rect class="frame" x="0" y="0" width="${full}" height="${full}" fill="${C.frame}"/>`,
    ];
    for (let sq = 0; sq < 49; sq++) {
      const [x, y] = corner(sq);
      const kind = CORNERS.includes(sq) ? " corner" : sq === THRONE ? " throne" : "";
      out.push(`<rect class="square ${NAMES[sq]}${kind}" x="${x}" y="${y}" width="${SQUARE}" ` +
               `height="${SQUARE}" fill="${kind ? C.special : C.square}" stroke="${C.line}" stroke-width="1"/>`);
    }
    for (const sq of CORNERS) {
      const [x, y] = corner(sq), a = 8, b = SQUARE - 8;
      out.push(`<path class="corner-mark ${NAMES[sq]}" d="M${x + a} ${y + a}L${x + b} ${y + b}M${x + b} ${y + a}` +
               `L${x + a} ${y + b}" stroke="${C.line}" stroke-width="3" stroke-linecap="round" fill="none"/>`);
    }
    {
      const [x, y] = centre(THRONE), r = SQUARE / 2 - 7;
      out.push(`<path class="throne-mark d4" d="M${num(x)} ${num(y - r)}L${num(x + r)} ${num(y)}` +
               `L${num(x)} ${num(y + r)}L${num(x - r)} ${num(y)}Z" stroke="${C.line}" ` +
               `stroke-width="3" stroke-linejoin="round" fill="none"/>`);
    }
    if (f.last) {
      for (const name of [f.last.slice(0, 2), f.last.slice(2)]) {
        const [x, y] = corner(INDEX[name]);
        out.push(`<rect class="lastmove ${name}" x="${x}" y="${y}" width="${SQUARE}" height="${SQUARE}" ` +
                 `fill="${C.lastmove}" fill-opacity="0.75"/>`);
      }
    }
    for (const name of f.captured || []) {
      const [x, y] = corner(INDEX[name]), a = 11, b = SQUARE - 11;
      out.push(`<path class="captured ${name}" d="M${x + a} ${y + a}L${x + b} ${y + b}M${x + b} ${y + a}` +
               `L${x + a} ${y + b}" stroke="${C.captured}" stroke-width="5" stroke-linecap="round" ` +
               `fill="none"/>`);
    }
    f.cells.forEach((piece, sq) => { if (piece) out.push(pieceOf(piece, NAMES[sq], ...centre(sq))); });
    for (const [a, b, colour] of arrows || []) {
      out.push(arrow(a + b, centre(INDEX[a]), centre(INDEX[b]), colour || C.arrow));
    }
    out.push(...coordinates(full));
    const at = num(full - MARGIN / 2);
    if (!f.over) {
      out.push(`<circle class="turn ${f.side}" cx="${at}" cy="${at}" r="6" ` +
               `fill="${f.side === "attackers" ? C.attacker : C.defender}" stroke="${C.coordinate}" stroke-width="1.5"/>`);
    }
    out.push("</svg>");
    return out.join("\n") + "\n";
  }

  function pieceOf(piece, name, x, y) {
    const head = `<g class="piece ${{ a: "attacker", d: "defender", k: "king" }[piece]} ${name}" ` +
                 `transform="translate(${num(x)} ${num(y)})">`;
    let body;
    if (piece === "a") {
      body = `<circle r="15" fill="${C.attacker}" stroke="#000000" stroke-width="1.5"/>` +
             `<circle r="9" fill="none" stroke="${C.attacker_ring}" stroke-width="2"/>`;
    } else if (piece === "d") {
      body = `<circle r="15" fill="${C.defender}" stroke="${C.outline}" stroke-width="2.5"/>` +
             `<circle r="9" fill="none" stroke="${C.defender_ring}" stroke-width="2"/>`;
    } else {
      body = `<circle r="17" fill="${C.king}" stroke="${C.outline}" stroke-width="2.5"/>` +
             `<path d="M-10 7L-10 -5L-5 1L0 -9L5 1L10 -5L10 7Z" fill="${C.crown}" stroke-linejoin="round"/>`;
    }
    return head + body + "</g>";
  }

  function arrow(name, [x1, y1], [x2, y2], colour) {
    if (x1 === x2 && y1 === y2) {
      return `<g class="arrow ${name}"><circle cx="${num(x1)}" cy="${num(y1)}" r="17" fill="none" ` +
             `stroke=${attr(colour)} stroke-opacity="0.8" stroke-width="4"/></g>`;
    }
    const length = Math.hypot(x2 - x1, y2 - y1);
    const dx = (x2 - x1) / length, dy = (y2 - y1) / length, px = -dy, py = dx;
    const head = 15, half = 11, shaft = 4, bx = x2 - dx * head, by = y2 - dy * head;
    const points = [[x1 + px * shaft, y1 + py * shaft], [bx + px * shaft, by + py * shaft],
                    [bx + px * half, by + py * half], [x2, y2], [bx - px * half, by - py * half],
                    [bx - px * shaft, by - py * shaft], [x1 - px * shaft, y1 - py * shaft]];
    const d = points.map(([a, b]) => num(a) + "," + num(b)).join(" ");
    return `<g class="arrow ${name}"><polygon points="${d}" fill=${attr(colour)} fill-opacity="0.8"/></g>`;
  }

  function coordinates(full) {
    const files = "abcdefg", ranks = "7654321";
    const text = `font-family="Helvetica, Arial, sans-serif" font-size="14" font-weight="bold" ` +
                 `fill="${C.coordinate}" text-anchor="middle"`;
    const out = [];
    for (let i = 0; i < 7; i++) {
      const mid = MARGIN + i * SQUARE + SQUARE / 2;
      for (const y of [MARGIN / 2, full - MARGIN / 2]) {
        out.push(`<text class="coordinate" x="${num(mid)}" y="${num(y + 5)}" ${text}>${files[i]}</text>`);
      }
      for (const x of [MARGIN / 2, full - MARGIN / 2]) {
        out.push(`<text class="coordinate" x="${num(x)}" y="${num(mid + 5)}" ${text}>${ranks[i]}</text>`);
      }
    }
    return out;
  }

  root.BrandubhBoard = { svg, NAMES, INDEX, COLOURS: C };
  if (typeof module !== "undefined" && module.exports) module.exports = root.BrandubhBoard;
})(typeof globalThis !== "undefined" ? globalThis : this);
