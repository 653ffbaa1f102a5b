// Q-Game board: the turn and the scores, the viewer's own hand when the view carries
// it, then the tile map (see RULES.md, "The view").
//
// On the play page, while the seat is to move (`ctx.moves` and `ctx.play`), the board
// builds a placement: click a tile in your hand, then one of the highlighted cells where
// it fits; the tile goes down tentatively (dashed outline, numbered in order). Add more
// tiles in the same row or column, then Confirm (or Undo the last, or Clear). Exchange
// and Pass are buttons too. The server's legal list only samples single-tile
// placements, so a placement of several tiles is built here and sent as one action.
import { h } from 'preact';
import htm from 'htm';
import { useRef, useState } from 'preact/hooks';
import { FONT, pts, seatMark } from '/web/lib/seats.js';

const html = htm.bind(h);


// Tile colours, each with a pale tint for the cell and a letter so that
// red/green/orange are never told apart by hue alone.
const TILE = {
  red: ['#D62828', '#F7D4D4', 'R'],
  green: ['#2E9E44', '#D5EFD9', 'G'],
  blue: ['#2F6FD0', '#D6E4F7', 'B'],
  yellow: ['#F2CC0C', '#FBF3C8', 'Y'],
  orange: ['#F57F17', '#FDE2CC', 'O'],
  purple: ['#8E3FB0', '#E9D7F1', 'P'],
};
const C = 10; // cell size in viewBox units
const CELL_PX = 60; // a map cell's largest size on screen; big maps scale down to fit
const HAND_PX = 46; // a hand tile's size on screen

// Hover and focus marks for the clickable parts (the shared stylesheet only knows
// `.board-move { cursor: pointer }`), scoped to this board.
const STYLE = `
.qg { font-family: ${FONT}; color: #111; display: grid; gap: 0.5rem; }
.qg .qg-head { display: grid; gap: 0.15rem; }
.qg .qg-turn { font-weight: 700; font-size: 1.05rem; }
.qg .qg-small { font-size: 0.85rem; color: #444; }
.qg .qg-players { display: flex; flex-wrap: wrap; gap: 0.3rem 0.5rem; margin: 0; padding: 0; list-style: none; }
.qg .qg-players li { display: flex; align-items: center; gap: 0.3rem; padding: 0.15rem 0.45rem;
  border: 1px solid #ccc; border-radius: 6px; background: #fafafa; font-size: 0.92rem; }
.qg .qg-players li { flex-wrap: wrap; }
.qg .qg-players li > * { white-space: nowrap; }
.qg .qg-players li.to-move { background: #fff3c4; border-color: #E69F00; }
.qg .qg-players li.out { color: #777; text-decoration: line-through; }
.qg .qg-hand { display: flex; flex-wrap: wrap; align-items: center; gap: 0.3rem; }
.qg .qg-hand .qg-label { font-weight: 600; margin-right: 0.2rem; }
.qg .qg-tile { padding: 2px; border: 2px solid transparent; border-radius: 8px; background: none;
  line-height: 0; min-width: 0; min-height: 0; }
.qg button.qg-tile { cursor: pointer; border-color: #0072B2; }
.qg button.qg-tile:hover, .qg button.qg-tile:focus-visible { background: #e3f0fa; outline: 2px solid #000; outline-offset: 1px; }
.qg button.qg-tile[aria-pressed="true"] { border-color: #000; background: #ffe0a3; box-shadow: 0 0 0 2px #E69F00; }
.qg .qg-tile.idle { opacity: 0.45; }
.qg .qg-tile.gone { border: 2px dashed #999; }
.qg .qg-controls { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.35rem; }
.qg .qg-controls .qg-group { display: flex; flex-wrap: wrap; gap: 0.35rem; }
.qg .qg-controls button { min-height: 40px; font-weight: 600; }
.qg .qg-controls .confirm { background: #009E73; color: #fff; border-color: #00664a; }
.qg .qg-hint { margin: 0; font-size: 0.92rem; }
@media (max-width: 480px) {
  .qg .qg-hand .qg-label { flex-basis: 100%; }
  .qg .qg-tile svg { width: min(${HAND_PX}px, 11vw); height: auto; }
}
.qg svg.qg-map { display: block; margin: 0 auto; height: auto; }
.qg .qg-cell .ring { fill: none; stroke: #0072B2; stroke-width: 0.9; }
.qg .qg-cell:hover .ring, .qg .qg-cell:focus .ring { stroke: #000; stroke-width: 1.5; }
.qg .qg-cell:hover .ghost, .qg .qg-cell:focus .ghost { opacity: 0.85; }
.qg .qg-cell:focus { outline: none; }
`;


// A star with n points: alternating outer and inner radii.
function starPoints(cx, cy, n, ro, ri) {
  const out = [];
  for (let i = 0; i < 2 * n; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / n;
    const r = i % 2 ? ri : ro;
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return pts(out);
}

// The shape itself, so a tile reads without colour.
function shape(kind, cx, cy, r, fill) {
  const st = { fill, stroke: '#222', 'stroke-width': r * 0.12, 'stroke-linejoin': 'round' };
  switch (kind) {
    case 'star':
      return html`<polygon points=${starPoints(cx, cy, 5, r, r * 0.42)} ...${st} />`;
    case '8star':
      return html`<polygon points=${starPoints(cx, cy, 8, r, r * 0.55)} ...${st} />`;
    case 'square':
      return html`<rect x=${cx - r * 0.78} y=${cy - r * 0.78} width=${r * 1.56} height=${r * 1.56} ...${st} />`;
    case 'circle':
      return html`<circle cx=${cx} cy=${cy} r=${r * 0.85} ...${st} />`;
    case 'diamond':
      return html`<polygon points=${pts([[cx, cy - r], [cx + r * 0.75, cy], [cx, cy + r], [cx - r * 0.75, cy]])} ...${st} />`;
    case 'clover': {
      // Four lobes: draw them stroked, then unstroked on top, leaving one outline.
      const d = r * 0.48, lr = r * 0.48;
      const lobes = [[d, 0], [-d, 0], [0, d], [0, -d]];
      return html`<g>
        ${lobes.map(([dx, dy]) => html`<circle cx=${cx + dx} cy=${cy + dy} r=${lr} ...${st} />`)}
        ${lobes.map(([dx, dy]) => html`<circle cx=${cx + dx} cy=${cy + dy} r=${lr} fill=${fill} />`)}
        <circle cx=${cx} cy=${cy} r=${lr * 0.8} fill=${fill} />
      </g>`;
    }
    default: // unknown shape: a question mark keeps it visible
      return html`<text x=${cx} y=${cy + r * 0.4} font-size=${r * 1.4} text-anchor="middle" fill="#222">?</text>`;
  }
}

const tileName = (t) => `${t.color} ${t.shape}`;

// One tile at the top-left corner (x, y), size s.
function tile(t, x, y, s) {
  const [ink, pale, letter] = TILE[t.color] || ['#888', '#eee', '?'];
  return html`<g>
    <title>${tileName(t)}</title>
    <rect x=${x + s * 0.03} y=${y + s * 0.03} width=${s * 0.94} height=${s * 0.94} rx=${s * 0.1}
      fill=${pale} stroke=${ink} stroke-width=${s * 0.05} />
    ${shape(t.shape, x + s / 2, y + s * 0.53, s * 0.33, ink)}
    <text x=${x + s * 0.1} y=${y + s * 0.24} font-size=${s * 0.2} font-weight="bold" fill="#222"
      font-family=${FONT}>${letter}</text>
  </g>`;
}

// A tile on its own, for the hand.
const tileIcon = (t, px) => html`<svg width=${px} height=${px} viewBox="0 0 10 10" aria-hidden="true">${tile(t, 0, 0, 10)}</svg>`;

const key = (row, col) => `${row},${col}`;
const NEIGHBOURS = [[0, -1], [0, 1], [-1, 0], [1, 0]];

// The neighbour-only fit rule of RULES.md ("A turn", place): on each axis, one
// neighbour shares the shape or the colour; two neighbours share the shape with the
// tile, or the colour, all three alike.
function fitsAt(get, row, col, t) {
  const line = (a, b) => {
    if (!a && !b) return true;
    if (!a || !b) {
      const one = a || b;
      return one.shape === t.shape || one.color === t.color;
    }
    return (a.shape === t.shape && b.shape === t.shape) || (a.color === t.color && b.color === t.color);
  };
  return line(get(row, col - 1), get(row, col + 1)) && line(get(row - 1, col), get(row + 1, col));
}

/**
 * Cells (as "row,col" keys) where tile `t` may go next, given `tiles` (the map plus this
 * turn's tentative tiles, by key) and `placed` (the tentative ones, in order): empty,
 * touching a tile, fitting its neighbours, and in one row or column with the tentative
 * tiles. This only chooses what to highlight; the referee decides when the placement is
 * sent (and ejects a seat for an illegal one, so the page offers nothing else).
 */
function fittingCells(tiles, placed, t) {
  const get = (r, c) => tiles.get(key(r, c))?.t;
  let sameRow = null, sameCol = null; // the line the placement is held to, if any
  if (placed.length === 1) [sameRow, sameCol] = [placed[0].row, placed[0].col];
  else if (placed.length > 1) {
    if (placed[0].row === placed[1].row) sameRow = placed[0].row;
    else sameCol = placed[0].col;
  }
  const out = new Set();
  for (const [, { row, col }] of tiles) {
    for (const [dr, dc] of NEIGHBOURS) {
      const r = row + dr, c = col + dc, k = key(r, c);
      if (out.has(k) || tiles.has(k)) continue;
      if (placed.length && r !== sameRow && c !== sameCol) continue;
      if (fitsAt(get, r, c, t)) out.add(k);
    }
  }
  return out;
}

/**
 * The placement under construction while the seat is to move: the selected hand tile,
 * the tentative tiles (hand index and cell, in order), and what each click does. Kept
 * between clicks and reset by each new step (the component is keyed by it).
 */
function Playable({ view, ctx, hand }) {
  const [selected, setSelected] = useState(null); // index into the hand
  const [placed, setPlaced] = useState([]); // [{i, row, col}] in placing order
  const moves = ctx.moves;
  const canPlace = moves.some((a) => Array.isArray(a));
  const canPass = moves.includes('pass');
  const canReplace = moves.includes('replace');

  // The map with the tentative tiles on it.
  const tiles = mapTiles(view);
  for (const p of placed) tiles.set(key(p.row, p.col), { row: p.row, col: p.col, t: hand[p.i], tentative: true });

  // Where each remaining hand tile fits (same tiles share one answer).
  const used = new Set(placed.map((p) => p.i));
  const byKind = new Map();
  const fitsOf = (i) => {
    const t = hand[i], k = tileName(t);
    if (!byKind.has(k)) byKind.set(k, canPlace ? fittingCells(tiles, placed, t) : new Set());
    return byKind.get(k);
  };
  const usable = hand.map((_, i) => !used.has(i) && fitsOf(i).size > 0);
  const pick = selected != null && usable[selected] ? selected : null;
  const targets = pick != null ? fitsOf(pick) : new Set();

  const send = (action) => ctx.play(action);
  const confirm = () => send(placed.map((p) => ({
    coordinate: { row: p.row, column: p.col },
    '1tile': { shape: hand[p.i].shape, color: hand[p.i].color },
  })));
  // From the keyboard, focus goes on to Confirm (the cell just used is gone).
  const root = useRef(null);
  const put = (row, col, byKey) => {
    setPlaced([...placed, { i: pick, row, col }]);
    setSelected(null);
    if (byKey) setTimeout(() => root.current?.querySelector('button.confirm')?.focus(), 0);
  };
  const undo = () => { setPlaced(placed.slice(0, -1)); setSelected(null); };
  const clear = () => { setPlaced([]); setSelected(null); };
  const onKeyDown = (e) => {
    if (e.key !== 'Escape') return;
    if (pick != null) setSelected(null);
    else if (placed.length) undo();
    else return;
    e.preventDefault();
  };

  const line = placed.length < 2 ? null
    : placed[0].row === placed[1].row ? `row ${placed[0].row}` : `column ${placed[0].col}`;
  const anyFits = usable.some(Boolean);
  const hint = pick != null
    ? `Click a highlighted cell for the ${tileName(hand[pick])} (${targets.size} ${targets.size === 1 ? 'place fits' : 'places fit'}), or pick another tile. Esc drops it.`
    : placed.length
      ? `${placed.length} ${placed.length === 1 ? 'tile' : 'tiles'} placed${line ? ` in ${line}` : ''}: Confirm to send${anyFits ? ', or pick another tile to add in the same line' : ''}.`
      : anyFits ? 'Your turn: pick a tile from your hand, then a highlighted cell where it fits.'
        : 'No tile in your hand fits anywhere: exchange your hand or pass.';

  // Confirm comes first of all the board's moves while there is something to confirm.
  const controls = html`<div class="qg-controls" role="group" aria-label="Your move">
    ${placed.length > 0 && html`<span class="qg-group">
      <button type="button" class="confirm" data-testid="board-move" onClick=${confirm}
        title="Send this placement to the referee">Confirm placement (${placed.length})</button>
      <button type="button" data-testid="board-undo" onClick=${undo} title="Take back the last tile (Esc)">Undo</button>
      <button type="button" data-testid="board-clear" onClick=${clear} title="Take back every tile">Clear</button>
    </span>`}
    <span class="qg-group">
      ${canReplace && html`<button type="button" data-testid="board-pass" onClick=${() => send('replace')}
        title="Your whole hand goes back under the pile and you draw as many new tiles; scores 0">Exchange hand</button>`}
      ${canPass && html`<button type="button" data-testid="board-pass" onClick=${() => send('pass')}
        title="Do nothing this turn">Pass</button>`}
    </span>
  </div>`;

  const handRow = html`<div class="qg-hand" role="group" aria-label="Your hand">
    <span class="qg-label">Your hand:</span>
    ${hand.map((t, i) => {
      if (used.has(i)) {
        const n = placed.findIndex((p) => p.i === i) + 1;
        return html`<span class="qg-tile gone" title=${`${tileName(t)}: placed as tile ${n} (Undo or Clear to take it back)`}>
          <svg width=${HAND_PX} height=${HAND_PX} viewBox="0 0 10 10" aria-hidden="true">
            <text x="5" y="6.6" font-size="4.5" text-anchor="middle" fill="#777" font-family=${FONT}>${n}</text></svg></span>`;
      }
      if (!usable[i]) {
        return html`<span class="qg-tile idle" title=${`${tileName(t)}: fits nowhere ${placed.length ? 'in this line' : 'now'}`}>
          ${tileIcon(t, HAND_PX)}</span>`;
      }
      const on = pick === i;
      return html`<button type="button" class="qg-tile" data-testid="board-select" aria-pressed=${on ? 'true' : 'false'}
        aria-label=${on ? `${tileName(t)} selected (click to drop)` : `Pick the ${tileName(t)}`}
        title=${on ? `${tileName(t)}: selected` : `Pick the ${tileName(t)}`}
        onClick=${() => setSelected(on ? null : i)}>${tileIcon(t, HAND_PX)}</button>`;
    })}
  </div>`;

  const play = {
    targets,
    ghost: pick != null ? hand[pick] : null,
    put,
    order: new Map(placed.map((p, n) => [key(p.row, p.col), n + 1])),
  };
  return html`<div class="qg" ref=${root} onKeyDown=${onKeyDown}>
    <style>${STYLE}</style>
    ${header(view, ctx)}
    ${controls}
    <p class="qg-hint" role="status">${hint}</p>
    ${handRow}
    ${map(view, ctx, tiles, play)}
  </div>`;
}

/** The view's JMap as tiles by "row,col". */
function mapTiles(view) {
  const tiles = new Map();
  for (const [row, ...cols] of view.map || []) for (const [col, t] of cols) tiles.set(key(row, col), { row, col, t });
  return tiles;
}

const nameOf = (view, ctx) => {
  const seats = (ctx && ctx.seats) || [];
  const players = view.players || [];
  return (i) => seats[i] || (players[i] && players[i].name) || `seat ${i}`;
};
const you = (view, ctx) => (view.you != null ? view.you : ctx && ctx.seat != null ? ctx.seat : null);

/** Turn, pile, round, and one chip per player with score and hand size. */
function header(view, ctx) {
  const players = view.players || [];
  const name = nameOf(view, ctx);
  const me = you(view, ctx);
  const short = (s) => (s.length > 18 ? s.slice(0, 17) + '…' : s);
  const turnText = view.over
    ? 'Game over'
    : view.to_act != null ? `Seat ${view.to_act} (${name(view.to_act)}) to move` : '';
  const left = (view.round_left || []).join(', ') || '—';
  // Winners: the best score among seats that were not ejected.
  const best = Math.max(-1, ...players.filter((p) => !p.ejected).map((p) => p.score));
  return html`<div class="qg-head">
    <div class="qg-turn">${turnText}</div>
    <div class="qg-small">
      ${view.pile} tiles left in the pile · Q bonus +${view.qbo}, whole hand +${view.fbo}
      ${!view.over && ` · still to move this round: ${left} · placed this round: ${view.placed_this_round ? 'yes' : 'no'}`}
    </div>
    <ul class="qg-players" aria-label="Players">
      ${players.map((p, i) => {
        const toMove = !view.over && view.to_act === i;
        const status = p.ejected ? 'ejected' : toMove ? '◀ to move' : view.over && p.score === best ? '★ winner' : '';
        return html`<li class=${p.ejected ? 'out' : toMove ? 'to-move' : ''} title=${p.ejected ? `ejected: ${p.ejected}` : null}>
          <svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true">${seatMark(i, 9, 9.5, 6.5)}</svg>
          <span>${short(name(i))}${me === i ? ' (you)' : ''}</span>
          <strong>${p.score} pts</strong>
          <span class="qg-small">hand ${p.hand_size}</span>
          ${status && html`<span class="qg-small">${status}</span>`}
        </li>`;
      })}
    </ul>
  </div>`;
}

/**
 * The map: a faint grid one cell beyond the tiles, the tiles, the tentative ones
 * dashed and numbered, and (while a hand tile is picked) the cells where it fits as
 * buttons. It is at most CELL_PX a cell and shrinks to fit the width and most of the
 * screen's height, so a sprawling map still fits.
 */
function map(view, ctx, tiles, play) {
  const all = [...tiles.values()];
  const rows = all.map((c) => c.row), cols = all.map((c) => c.col);
  const r0 = Math.min(0, ...rows) - 1, r1 = Math.max(0, ...rows) + 1;
  const c0 = Math.min(0, ...cols) - 1, c1 = Math.max(0, ...cols) + 1;
  const nc = c1 - c0 + 1, nr = r1 - r0 + 1;
  const bw = nc * C, bh = nr * C;
  const X = (c) => (c - c0) * C, Y = (r) => (r - r0) * C;

  const players = view.players || [];
  const name = nameOf(view, ctx);
  const title = `Q-Game, step ${(ctx && ctx.step) ?? ''}: ` +
    players.map((p, i) => `${name(i)} ${p.score}`).join(', ') + `. ${all.length} tiles on the map.`;

  // Faint grid of the bounding box, so gaps and the origin are visible: one patterned
  // rectangle rather than a rectangle per cell, since a finished map spans thousands.
  const grid = html`<g>
    <defs><pattern id="qg-grid" width=${C} height=${C} patternUnits="userSpaceOnUse">
      <rect x="0.3" y="0.3" width=${C - 0.6} height=${C - 0.6} fill="#f4f2ec" />
    </pattern></defs>
    <rect x="0" y="0" width=${bw} height=${bh} fill="url(#qg-grid)" />
    <rect x=${X(0) + 0.3} y=${Y(0) + 0.3} width=${C - 0.6} height=${C - 0.6} fill="#e8e4da" />
  </g>`;

  const drawn = all.map((c) => {
    if (!c.tentative) return tile(c.t, X(c.col), Y(c.row), C);
    const n = play.order.get(key(c.row, c.col));
    return html`<g>
      ${tile(c.t, X(c.col), Y(c.row), C)}
      <rect x=${X(c.col) + 0.2} y=${Y(c.row) + 0.2} width=${C - 0.4} height=${C - 0.4} rx="1"
        fill="none" stroke="#000" stroke-width="0.7" stroke-dasharray="1.4 0.9" />
      <circle cx=${X(c.col) + C * 0.82} cy=${Y(c.row) + C * 0.18} r="1.6" fill="#000" />
      <text x=${X(c.col) + C * 0.82} y=${Y(c.row) + C * 0.18 + 0.75} font-size="2.1" text-anchor="middle"
        font-weight="bold" fill="#fff" font-family=${FONT}>${n}</text>
    </g>`;
  });

  // Cells where the picked tile fits: buttons, in row-column order.
  const targets = play ? [...play.targets].map((k) => k.split(',').map(Number))
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]) : [];
  const cells = targets.map(([row, col]) => {
    const text = `Put the ${tileName(play.ghost)} at row ${row}, column ${col}`;
    return html`<g class="qg-cell board-move" role="button" tabindex="0" data-testid="board-move" aria-label=${text}
        onClick=${() => play.put(row, col, false)}
        onKeyDown=${(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); play.put(row, col, true); } }}>
      <title>${text}</title>
      <rect x=${X(col)} y=${Y(row)} width=${C} height=${C} fill="#dcefff" />
      <g class="ghost" opacity="0.5">${tile(play.ghost, X(col), Y(row), C)}</g>
      <rect class="ring" x=${X(col) + 0.5} y=${Y(row) + 0.5} width=${C - 1} height=${C - 1} rx="1" />
    </g>`;
  });

  // Width: CELL_PX a cell at most, never wider than the board, never taller than 70vh.
  const width = `min(100%, ${nc * CELL_PX}px, calc(70vh * ${(nc / nr).toFixed(4)}))`;
  return html`<svg class="qg-map" viewBox=${`0 0 ${bw} ${bh}`} role="img" style=${`width: ${width}`}>
    <title>${title}</title>
    ${grid}
    ${drawn}
    ${cells}
  </svg>`;
}

/** Every move can be made on this board; the page keeps its move list folded away. */
export const playsOnTheBoard = true;

export function render(view, ctx) {
  const me = you(view, ctx);
  const hand = me != null && view.players && view.players[me] && view.players[me].hand;
  if (ctx && ctx.moves && ctx.moves.length && ctx.play && hand && !view.over) {
    return html`<${Playable} key=${ctx.step} view=${view} ctx=${ctx} hand=${hand} />`;
  }
  return html`<div class="qg">
    <style>${STYLE}</style>
    ${header(view, ctx)}
    ${hand && html`<div class="qg-hand" role="group" aria-label="Your hand">
      <span class="qg-label">Your hand:</span>
      ${hand.length ? hand.map((t) => html`<span class="qg-tile" title=${tileName(t)}>${tileIcon(t, HAND_PX)}</span>`) : 'empty'}
    </div>`}
    ${map(view, ctx, mapTiles(view), null)}
  </div>`;
}

/** The move list's wording for an action (the page falls back to a generic one). */
export function label(a) {
  if (a === 'pass') return 'Pass';
  if (a === 'replace') return 'Replace your hand';
  if (Array.isArray(a)) {
    return `Place ${a.map((p) => `${p['1tile']?.color} ${p['1tile']?.shape} at (${p.coordinate?.row}, ${p.coordinate?.column})`).join(', ')}`;
  }
  return null;
}
