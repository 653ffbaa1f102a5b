// Q-Game: place tiles, as many and as well-scoring as a quick greedy search finds.
//
// The server's legal list is a sample (crates/games/qgame/RULES.md): "pass", "replace"
// when the pile allows, and every single-tile placement. This bot scores each single
// tile as the rules score it, then tries to extend the best ones along their row or
// column with more tiles from the hand (checking the fit rule itself), and plays the
// best placement found. With no placement it replaces its hand (or passes). A refused
// multi-tile placement (should our own check be wrong) costs nothing in a native match:
// the next try uses only the server's single-tile placements.
'use strict';

const cellKey = (r, c) => `${r},${c}`;
const keyOf = (p) => [p.coordinate.row, p.coordinate.column];
const sameTile = (a, b) => a.shape === b.shape && a.color === b.color;

function decide(view, legal, prompt) {
  const singles = legal.filter(Array.isArray);
  if (!singles.length) return legal.includes('replace') ? 'replace' : 'pass';
  const game = new Game(view);
  const ranked = singles.map((a) => [game.points(a), a]).sort((x, y) => y[0] - x[0]);
  if (prompt.rejected) return ranked[0][1]; // our own search was wrong once: stay with the server's list
  let [bestPoints, best] = ranked[0];
  for (const [, start] of ranked.slice(0, 8)) {
    for (const along of [[0, 1], [1, 0]]) { // extend along the row, then along the column
      const placement = game.extend(start, along);
      const points = game.points(placement);
      if (points > bestPoints) [best, bestPoints] = [placement, points];
    }
  }
  return best;
}

class Game {
  constructor(view) {
    this.board = new Map();
    for (const [r, ...cells] of view.map) for (const [c, tile] of cells) this.board.set(cellKey(r, c), tile);
    this.hand = view.players[view.you].hand;
    this.qbo = view.qbo ?? 8;
    this.fbo = view.fbo ?? 4;
  }

  // The fit rule, on both axes (RULES.md: "How to play", a turn).
  fits(board, [r, c], tile) {
    if (board.has(cellKey(r, c))) return false;
    let touching = false;
    for (const axis of [[[0, -1], [0, 1]], [[-1, 0], [1, 0]]]) {
      const neighbours = axis.map(([dr, dc]) => board.get(cellKey(r + dr, c + dc))).filter(Boolean);
      touching = touching || neighbours.length > 0;
      if (neighbours.length === 1) {
        const n = neighbours[0];
        if (n.shape !== tile.shape && n.color !== tile.color) return false;
      } else if (neighbours.length === 2) {
        if (!(neighbours.every((n) => n.shape === tile.shape) || neighbours.every((n) => n.color === tile.color))) return false;
      }
    }
    return touching;
  }

  // Grow a single-tile placement with hand tiles at the ends of its line.
  extend(start, along) {
    const board = new Map(this.board);
    const hand = this.hand.slice();
    const placement = [];
    for (const p of start) {
      board.set(cellKey(...keyOf(p)), p['1tile']);
      hand.splice(hand.findIndex((t) => sameTile(t, p['1tile'])), 1);
      placement.push(p);
    }
    let grown = true;
    while (grown && hand.length) {
      grown = false;
      for (const end of Game.ends(board, keyOf(placement[0]), along)) {
        const i = hand.findIndex((tile) => this.fits(board, end, tile));
        if (i >= 0) {
          const [tile] = hand.splice(i, 1);
          board.set(cellKey(...end), tile);
          placement.push({ coordinate: { row: end[0], column: end[1] }, '1tile': tile });
          grown = true;
          break;
        }
      }
    }
    return placement;
  }

  // The empty cells just past both ends of the run through `cell`.
  static ends(board, cell, [dr, dc]) {
    return [1, -1].map((sign) => {
      let [r, c] = cell;
      while (board.has(cellKey(r, c))) [r, c] = [r + sign * dr, c + sign * dc];
      return [r, c];
    });
  }

  // The rules' score of a placement (tiles, runs, Q bonus, finish bonus).
  points(placement) {
    const board = new Map(this.board);
    for (const p of placement) board.set(cellKey(...keyOf(p)), p['1tile']);
    const cells = placement.map(keyOf);
    const rowLine = cells.length === 1 || new Set(cells.map(([r]) => r)).size === 1;
    const [along, across] = rowLine ? [[0, 1], [1, 0]] : [[1, 0], [0, 1]];
    let total = cells.length;
    const seen = new Set();
    for (const cell of cells) {
      let run = Game.run(board, cell, along);
      if (run.length >= 2 && !seen.has(cellKey(...run[0]))) {
        seen.add(cellKey(...run[0]));
        total += this.runPoints(board, run);
      }
      run = Game.run(board, cell, across);
      if (run.length >= 2) total += this.runPoints(board, run);
    }
    if (placement.length === this.hand.length) total += this.fbo;
    return total;
  }

  static run(board, [r, c], [dr, dc]) {
    while (board.has(cellKey(r - dr, c - dc))) [r, c] = [r - dr, c - dc];
    const run = [];
    while (board.has(cellKey(r, c))) {
      run.push([r, c]);
      [r, c] = [r + dr, c + dc];
    }
    return run;
  }

  runPoints(board, run) {
    const tiles = run.map(([r, c]) => board.get(cellKey(r, c)));
    const q = run.length === 6 && (new Set(tiles.map((t) => t.color)).size === 6 || new Set(tiles.map((t) => t.shape)).size === 6);
    return run.length + (q ? this.qbo : 0);
  }
}

module.exports = { decide };
