// Q-Game board: the tile map, then a panel with scores, hands, pile and turn,
// and the viewer's own hand when the view carries it (see RULES.md, "The view").
import { h } from 'preact';
import htm from 'htm';
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

// One tile at the top-left corner (x, y), size s.
function tile(t, x, y, s) {
  const [ink, pale, letter] = TILE[t.color] || ['#888', '#eee', '?'];
  return html`<g>
    <title>${t.color} ${t.shape}</title>
    <rect x=${x + s * 0.03} y=${y + s * 0.03} width=${s * 0.94} height=${s * 0.94} rx=${s * 0.1}
      fill=${pale} stroke=${ink} stroke-width=${s * 0.05} />
    ${shape(t.shape, x + s / 2, y + s * 0.53, s * 0.33, ink)}
    <text x=${x + s * 0.1} y=${y + s * 0.24} font-size=${s * 0.2} font-weight="bold" fill="#222"
      font-family=${FONT}>${letter}</text>
  </g>`;
}

export function render(view, ctx) {
  const seats = (ctx && ctx.seats) || [];
  const players = view.players || [];
  const you = view.you != null ? view.you : ctx && ctx.seat != null ? ctx.seat : null;
  const name = (i) => seats[i] || (players[i] && players[i].name) || `seat ${i}`;
  const short = (s) => (s.length > 16 ? s.slice(0, 15) + '…' : s);

  // Flatten the JMap into cells and find its bounds.
  const cells = [];
  for (const [row, ...cols] of view.map || []) for (const [col, t] of cols) cells.push({ row, col, t });
  const rows = cells.map((c) => c.row), cols = cells.map((c) => c.col);
  const r0 = Math.min(0, ...rows) - 1, r1 = Math.max(0, ...rows) + 1;
  const c0 = Math.min(0, ...cols) - 1, c1 = Math.max(0, ...cols) + 1;
  const bw = (c1 - c0 + 1) * C, bh = (r1 - r0 + 1) * C;

  // The panel is laid out 170 units wide and scaled with the map, so its text
  // stays a sensible fraction of the picture: beside a tall map, under a wide one.
  const PW = 170;
  const hand = you != null && players[you] && players[you].hand;
  const lineH = 9;
  const handTop = 26 + players.length * lineH;
  const panelH = handTop + (hand ? (hand.length ? 24 : 14) : 0);
  const side = bh > bw;
  const k = side ? Math.max(1, bh / 300) : Math.max(1, (0.6 * bw) / PW);
  const W = side ? bw + 4 + PW * k : Math.max(bw, PW * k);
  const H = side ? Math.max(bh, panelH * k) : bh + 4 + panelH * k;
  const ox = side ? 0 : (W - bw) / 2; // board offset
  const panelAt = side ? `translate(${bw + 4} 0) scale(${k})` : `translate(${(W - PW * k) / 2} ${bh + 4}) scale(${k})`;

  const turnText = view.over
    ? 'Game over'
    : view.to_act != null ? `Seat ${view.to_act} (${name(view.to_act)}) to move` : '';
  const title = `Q-Game, step ${(ctx && ctx.step) ?? ''}: ` +
    players.map((p, i) => `${name(i)} ${p.score}`).join(', ') + `. ${turnText}`;

  // Faint grid of the bounding box, so gaps and the origin are visible.
  const grid = [];
  for (let r = r0; r <= r1; r++)
    for (let c = c0; c <= c1; c++)
      grid.push(html`<rect x=${ox + (c - c0) * C + 0.3} y=${(r - r0) * C + 0.3} width=${C - 0.6}
        height=${C - 0.6} fill=${r === 0 && c === 0 ? '#e8e4da' : '#f4f2ec'} />`);

  // Winners: the best score among seats that were not ejected.
  const best = Math.max(-1, ...players.filter((p) => !p.ejected).map((p) => p.score));
  const playerRows = players.map((p, i) => {
    const y = 28 + i * lineH;
    const toMove = !view.over && view.to_act === i;
    const status = p.ejected ? 'ejected' : toMove ? '◀ to move' : view.over && p.score === best ? '★ winner' : '';
    return html`<g>
      ${toMove && html`<rect x="2" y=${y - 6.8} width=${PW - 4} height="8.4" rx="1.5" fill="#fff3c4" />`}
      ${seatMark(i, 7, y - 2.6, 3)}
      <text x="13" y=${y} font-size="5.2" fill="#111" font-family=${FONT}
        text-decoration=${p.ejected ? 'line-through' : null}>
        ${p.ejected && html`<title>ejected: ${p.ejected}</title>`}
        ${short(name(i))}${you === i ? ' (you)' : ''}
      </text>
      <text x="78" y=${y} font-size="5.2" fill="#111" font-family=${FONT} font-weight="bold">${p.score} pts</text>
      <text x="104" y=${y} font-size="5.2" fill="#333" font-family=${FONT}>hand ${p.hand_size}</text>
      <text x="130" y=${y} font-size="4.4" fill="#7a2000" font-family=${FONT}>${status}</text>
    </g>`;
  });

  const left = (view.round_left || []).join(', ') || '—';
  // Hand tiles shrink if a custom start state dealt a big hand.
  const hs = hand ? Math.min(16, (PW - 40) / Math.max(1, hand.length) - 1) : 0;

  return html`<svg viewBox=${`0 0 ${W.toFixed(2)} ${H.toFixed(2)}`} width="100%" role="img"
      style="max-height: 90vh; background: #fff">
    <title>${title}</title>
    <g>${grid}</g>
    ${cells.map((c) => tile(c.t, ox + (c.col - c0) * C, (c.row - r0) * C, C))}
    <g transform=${panelAt}>
      <rect x="0.5" y="0.5" width=${PW - 1} height=${panelH - 1} rx="2" fill="#fafafa" stroke="#bbb" stroke-width="0.5" />
      <text x="4" y="8" font-size="5.6" font-weight="bold" fill="#111" font-family=${FONT}>${turnText}</text>
      <text x="4" y="14.5" font-size="4.4" fill="#333" font-family=${FONT}>
        Pile ${view.pile} tiles · bonuses: Q +${view.qbo}, whole hand +${view.fbo}
      </text>
      <text x="4" y="20.5" font-size="4.4" fill="#333" font-family=${FONT}>
        ${view.over ? '' : `Still to move this round: ${left} · placed this round: ${view.placed_this_round ? 'yes' : 'no'}`}
      </text>
      ${playerRows}
      ${hand && html`<g>
        <text x="4" y=${handTop + 10} font-size="4.6" fill="#111" font-family=${FONT}>
          Your hand:${hand.length ? '' : ' empty'}
        </text>
        ${hand.map((t, i) => tile(t, 34 + i * (hs + 1), handTop + 2, hs))}
      </g>`}
    </g>
  </svg>`;
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
