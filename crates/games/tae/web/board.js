// Tigris & Euphrates in space: the grid with terrain, colonies, artifacts,
// leaders and region outlines, then a panel with the turn, the owed decision
// and each player's public (and, in a seat's own view, private) numbers.
import { h } from 'preact';
import htm from 'htm';
import { FONT, pts, seatMark } from '/web/lib/seats.js';

const html = htm.bind(h);

const C = 10; // cell size in viewBox units
const M = 6; // margin for the coordinate labels
const T = 1; // top margin, so the top region outlines are not clipped

// Colonist kinds: a pale fill (kept apart from the seat colours) and a
// two-letter label, which is the cue that does not rely on colour.
const KINDS = ['scientist', 'mining', 'merchant', 'settler'];
const KIND = {
  scientist: ['#E2D9F3', 'Sc'],
  mining: ['#E3CBA8', 'Mi'],
  merchant: ['#F6E39A', 'Me'],
  settler: ['#CDE8C4', 'Se'],
};
const ab = (k) => (KIND[k] ? KIND[k][1] : k);
const RES = [['technology', 'Tech'], ['raw_materials', 'Raw'], ['money', 'Money'], ['people', 'People']];


// A four-pointed star for artifacts; hollow once its artifact is taken.
function artifactMark(cx, cy, r, present) {
  const p = [];
  for (let i = 0; i < 8; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 4, rr = i % 2 ? r * 0.38 : r;
    p.push([cx + rr * Math.cos(a), cy + rr * Math.sin(a)]);
  }
  return html`<polygon points=${pts(p)} fill=${present ? '#FFD23F' : 'none'} stroke="#5a4300"
    stroke-width=${present ? 0.4 : 0.3} />`;
}

export function render(view, ctx) {
  const seats = (ctx && ctx.seats) || [];
  const me = view.seat != null ? view.seat : ctx && ctx.seat != null ? ctx.seat : null;
  const W0 = view.width, H0 = view.height;
  const players = view.players || [];
  const prompt = view.prompt || {};
  const name = (i) => seats[i] || `seat ${i}`;
  const short = (s) => (s.length > 14 ? s.slice(0, 13) + '…' : s);

  // Row y = 0 is at the bottom.
  const sx = (x) => M + x * C;
  const sy = (y) => T + (H0 - 1 - y) * C;
  const key = (x, y) => `${x},${y}`;
  const byPos = new Map((view.cells || []).map((c) => [key(c.x, c.y), c]));
  const bw = W0 * C, bh = H0 * C;

  // Cells the current decision is about: the joining colony, the fighting
  // leaders, the artifacts up for harvest.
  const rings = [];
  if (prompt.join) rings.push({ ...prompt.join, colour: '#B00020', label: 'joining colony' });
  if (prompt.battle) {
    const b = prompt.battle;
    for (const s of [b.attacker, b.defender]) {
      const pl = players[s];
      const at = pl && (pl.leaders_on_board || []).find(([k]) => k === b.kind);
      if (at) rings.push({ ...at[1], colour: '#B00020', label: s === b.attacker ? 'attacker' : 'defender' });
    }
  }
  for (const p of prompt.cells || []) rings.push({ ...p, colour: '#7A5A00', label: 'claimable artifact' });

  const cellNodes = (view.cells || []).map((c) => {
    const x = sx(c.x), y = sy(c.y);
    const unin = c.terrain === 'uninhabitable';
    const tip = `(${c.x}, ${c.y}) ${c.terrain}` + (c.destroyed ? ', destroyed' : '') +
      (c.colony ? `, ${c.colony} colony` : '') + (c.artifact ? ', artifact' : '') +
      (c.leader ? `, ${name(c.leader.owner)}'s ${c.leader.kind} leader` : '') +
      (c.region != null ? `, region ${c.region}` : '');
    return html`<g>
      <title>${tip}</title>
      <rect x=${x} y=${y} width=${C} height=${C} fill=${c.destroyed ? '#5A5A5A' : unin ? '#BDBDBD' : '#F4EFE2'}
        stroke="#d0ccc0" stroke-width="0.3" />
      ${unin && !c.destroyed && html`<path d=${`M${x + 1} ${y + C - 1}L${x + C - 1} ${y + 1}M${x + 1} ${y + 4}L${x + 4} ${y + 1}M${x + 6} ${y + C - 1}L${x + C - 1} ${y + 6}`}
        stroke="#a0a0a0" stroke-width="0.4" />`}
      ${c.destroyed && html`<path d=${`M${x + 2} ${y + 2}L${x + C - 2} ${y + C - 2}M${x + C - 2} ${y + 2}L${x + 2} ${y + C - 2}`}
        stroke="#eee" stroke-width="0.8" />`}
      ${c.colony && html`<g>
        <rect x=${x + 0.9} y=${y + 0.9} width=${C - 1.8} height=${C - 1.8} rx="1.2" fill=${KIND[c.colony] ? KIND[c.colony][0] : '#ddd'}
          stroke="#555" stroke-width="0.35" />
        <text x=${x + C / 2} y=${y + C * 0.66} font-size="4" text-anchor="middle" fill="#222"
          font-family=${FONT}>${ab(c.colony)}</text>
      </g>`}
      ${c.leader && html`<g>
        ${seatMark(c.leader.owner, x + C / 2, y + C / 2, C * 0.38, ab(c.leader.kind))}
      </g>`}
      ${(c.artifact || c.terrain === 'artifact') && artifactMark(x + C - 2.2, y + 2.2, 1.9, c.artifact)}
    </g>`;
  });

  // Region outlines: a thick line on every side where the region changes.
  const edges = [];
  for (const c of view.cells || []) {
    if (c.region == null) continue;
    const x = sx(c.x), y = sy(c.y);
    const other = (dx, dy) => {
      const n = byPos.get(key(c.x + dx, c.y + dy));
      return !n || n.region !== c.region;
    };
    if (other(0, 1)) edges.push(`M${x} ${y}h${C}`);
    if (other(0, -1)) edges.push(`M${x} ${y + C}h${C}`);
    if (other(-1, 0)) edges.push(`M${x} ${y}v${C}`);
    if (other(1, 0)) edges.push(`M${x + C} ${y}v${C}`);
  }

  // Owed decision, in words.
  const b = prompt.battle;
  let doing = '', fight = '';
  if (prompt.prompt === 'act') doing = `${name(prompt.seat)} to act · ${prompt.actions_left} action${prompt.actions_left === 1 ? '' : 's'} left`;
  else if (prompt.prompt === 'choose_conflict')
    doing = `${name(prompt.seat)} picks the next conflict: ` +
      (prompt.options || []).map((o) => `${o.kind} (${name(o.attacker)} vs ${name(o.defender)})`).join(', ');
  else if (prompt.prompt === 'commit' && b) {
    doing = `${name(prompt.seat)} commits ${b.kind === 'scientist' || b.internal ? 'scientists' : b.kind + ' colonists'}` +
      ` as ${prompt.seat === b.attacker ? 'attacker' : 'defender'}`;
    fight = `${b.internal ? 'Internal' : 'External'} ${b.kind} conflict: ${name(b.attacker)} ` +
      `${b.attacker_base} + ${b.attacker_commit ?? '?'} vs ${name(b.defender)} ${b.defender_base} + ? (tie: defender wins)`;
  }
  else if (prompt.prompt === 'harvest')
    doing = `${name(prompt.seat)} takes an artifact (ringed)` + ((prompt.later || []).length ? ` · ${prompt.later.length} more claims` : '');
  else if (prompt.prompt === 'over') {
    const e = prompt.end || {};
    doing = 'Game over: ' + (e.reason === 'artifacts' ? `only ${e.left} artifacts left`
      : e.reason === 'bag_empty' ? 'the bag could not refill every hand'
      : e.reason === 'last_player' ? 'one player left' : e.reason || '');
  }
  const pending = (prompt.pending || []).map((o) => o.kind || o).join(', ');
  const headline = view.outcome ? view.outcome.summary || 'Game over'
    : `Turn ${view.turn} · ${name(view.active)} active · ${view.actions_left} action${view.actions_left === 1 ? '' : 's'} left`;
  const unseen = view.unseen || {};
  const info = `Bag ${view.bag_count} · unseen: ` + KINDS.map((k) => `${ab(k)} ${unseen[k] ?? 0}`).join(', ') +
    ` · hands of ${view.hand_size}`;

  // One block per player: public numbers, then private ones when present.
  const ranks = view.outcome && view.outcome.ranks;
  const blocks = [];
  let py = fight ? 26 : 21;
  players.forEach((p, i) => {
    const s = p.seat != null ? p.seat : i;
    const lines = [
      `hand ${p.hand_count} · out of game ${p.discarded_count} · artifacts ${p.artifacts} · bombers ${p.bombers}` +
        ` · leaders off board: ${(p.leaders_in_hand || []).map(ab).join(' ') || 'none'}`,
    ];
    if (p.resources) lines.push('Resources: ' + RES.map(([k, l]) => `${l} ${p.resources[k]}`).join(' · '));
    if (p.hand) lines.push('Hand: ' + KINDS.map((k) => `${ab(k)} ${p.hand[k] ?? 0}`).join(', ') +
      (p.discarded ? ' · out of game: ' + KINDS.map((k) => `${ab(k)} ${p.discarded[k] ?? 0}`).join(', ') : ''));
    if (p.ejected) lines.push(`ejected: ${p.ejected}`);
    const hgt = 8 + lines.length * 5.4;
    const owes = prompt.seat === s && prompt.prompt !== 'over';
    const tag = ranks ? (ranks[s] === 1 ? '★ winner' : `rank ${ranks[s]}`) : owes ? '◀ to decide' : '';
    blocks.push(html`<g transform=${`translate(0 ${py})`}>
      <rect x="0" y="0" width=${bw} height=${hgt} rx="1.5" fill=${owes ? '#fff3c4' : '#fafafa'} stroke="#ccc" stroke-width="0.3" />
      ${seatMark(s, 5, 4.2, 2.7, s)}
      <text x="10" y="6" font-size="4.6" font-weight="bold" fill="#111" font-family=${FONT}>
        ${short(name(s))}${me === s ? ' (you)' : ''}${p.score != null ? ` · score ${p.score}` : ''}
        <tspan font-weight="normal" fill="#7a2000">${tag ? `  ${tag}` : ''}</tspan>
      </text>
      ${lines.map((t, j) => html`<text x="4" y=${11.4 + j * 5.4} font-size="3.8" fill="#222" font-family=${FONT}>${t}</text>`)}
    </g>`);
    py += hgt + 1.5;
  });

  const legend = ['Colonies and leaders: Sc scientist, Mi mining, Me merchant, Se settler; a leader is its seat\'s shape',
    'Star: artifact (hollow: taken) · hatched: uninhabitable · X: destroyed · black lines: regions'];
  const panelH = py + 12;
  const W = bw + M + 1, H = T + bh + M + panelH;
  const title = `Tigris & Euphrates, step ${(ctx && ctx.step) ?? ''}: ${headline}. ${doing}`;

  return html`<svg viewBox=${`0 0 ${W} ${H.toFixed(2)}`} width="100%" role="img"
      style="max-height: 90vh; background: #fff">
    <title>${title}</title>
    ${cellNodes}
    <path d=${edges.join('')} stroke="#1a1a1a" stroke-width="0.9" stroke-linecap="round" fill="none" />
    ${rings.map((r) => html`<rect x=${sx(r.x) + 0.4} y=${sy(r.y) + 0.4} width=${C - 0.8} height=${C - 0.8} fill="none"
      stroke=${r.colour} stroke-width="0.9" stroke-dasharray="1.6 0.9"><title>${r.label}</title></rect>`)}
    ${Array.from({ length: W0 }, (_, x) => html`<text x=${sx(x) + C / 2} y=${bh + 4} font-size="3" text-anchor="middle"
      fill="#666" font-family=${FONT}>${x}</text>`)}
    ${Array.from({ length: H0 }, (_, y) => html`<text x=${M - 1.2} y=${sy(y) + C / 2 + 1} font-size="3" text-anchor="end"
      fill="#666" font-family=${FONT}>${y}</text>`)}
    <g transform=${`translate(${M} ${T + bh + M})`}>
      <text x="0" y="5" font-size="4.8" font-weight="bold" fill="#111" font-family=${FONT}>${headline}</text>
      <text x="0" y="11" font-size="4.2" fill="#111" font-family=${FONT}>${doing}${pending ? ` · pending: ${pending}` : ''}</text>
      <text x="0" y="17" font-size="3.8" fill="#333" font-family=${FONT}>${fight || info}</text>
      ${fight && html`<text x="0" y="22" font-size="3.8" fill="#333" font-family=${FONT}>${info}</text>`}
      ${blocks}
      ${legend.map((t, i) => html`<text x="0" y=${py + 4 + i * 4.2} font-size="3.2" fill="#555" font-family=${FONT}>${t}</text>`)}
    </g>
  </svg>`;
}
