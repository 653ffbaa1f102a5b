// Spacegoo's board for the browser: planets sized by production and filled by owner,
// their three ship counts, and fleets on their way. Served as /boards/spacegoo.js; the
// page calls render(view, {seats, seat, step}) and mounts the returned Preact vnode.
//
// view: {planets: [{id, x, y, owner_id, ships: [a,b,c], production: [a,b,c]}],
//        fleets: [{id, owner_id, ships, origin, target, eta, alive}],
//        round, max_rounds, game_over, winner, end_reason, disqualified: [..]}
// owner_id 0 is neutral; owner 1 is seat 0 and owner 2 is seat 1.
import { h } from 'preact';
import htm from 'htm';
import { seatColour, seatInk } from '/web/lib/seats.js';

const html = htm.bind(h);

// Player n is seat n - 1: the shared seat colours (web/lib/seats.js), told apart by
// colour-blind viewers too; each owner's planets also carry its number, and its fleets
// have their own shape. Owner 0 is neutral.
const NEUTRAL = { fill: '#d9d9d9', stroke: '#777', text: '#222', label: '' };
const owner = (id) => (id > 0
  ? { fill: seatColour(id - 1), stroke: '#333', text: seatInk(id - 1), label: String(id) }
  : NEUTRAL);

const S = 22; // pixels per map unit
const HEADER = 76; // room above the map for the round and the players

const sum = (xs) => (xs ?? []).reduce((a, b) => a + b, 0);
const shipsText = (ships) => (ships ?? []).join('/');

/** Travel time as the game computes it: the Euclidean distance rounded up. */
const distance = (a, b) => Math.ceil(Math.hypot(a.x - b.x, a.y - b.y));

/** Planet radius in pixels: grows with total production, capped to avoid overlaps. */
const radius = (planet) => Math.min(11 + 1.8 * sum(planet.production), 31);

function fleetMarker(ownerId, x, y, angle) {
  const o = owner(ownerId);
  // Owner 1: a triangle pointing along the flight; owner 2: a square (turned likewise).
  const shape = ownerId === 1
    ? html`<polygon points="10,0 -7,-7.5 -7,7.5" />`
    : html`<rect x="-6.5" y="-6.5" width="13" height="13" />`;
  return html`<g transform=${`translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${angle.toFixed(1)})`}
    fill=${o.fill} stroke=${o.stroke} stroke-width="1.2">${shape}</g>`;
}

function shorten(name, max = 14) {
  return name.length > max ? `${name.slice(0, max - 1)}…` : name;
}

export function render(view, ctx = {}) {
  const planets = view.planets ?? [];
  const fleets = view.fleets ?? [];
  const byId = new Map(planets.map((p) => [p.id, p]));
  const nameOf = (ownerId) => ctx.seats?.[ownerId - 1] ?? `player ${ownerId}`;

  // Fit the view box to the planets, with room for the labels around them.
  const xs = planets.map((p) => p.x);
  const ys = planets.map((p) => p.y);
  const margin = 52;
  const minX = Math.min(0, ...xs) * S - margin;
  const maxX = Math.max(0, ...xs) * S + margin;
  const minY = Math.min(0, ...ys) * S - margin;
  const maxY = Math.max(0, ...ys) * S + margin;
  const width = Math.max(maxX - minX, 420);
  const left = (minX + maxX) / 2 - width / 2;
  const top = minY - HEADER;
  const height = maxY - top;

  // Totals per player, the quickest read of who is ahead.
  const totals = { 1: { ships: 0, planets: 0, fleets: 0 }, 2: { ships: 0, planets: 0, fleets: 0 } };
  for (const p of planets) {
    if (totals[p.owner_id]) { totals[p.owner_id].ships += sum(p.ships); totals[p.owner_id].planets++; }
  }
  for (const f of fleets) {
    if (totals[f.owner_id]) { totals[f.owner_id].ships += sum(f.ships); totals[f.owner_id].fleets++; }
  }

  const routes = [];
  const markers = [];
  for (const f of fleets) {
    const from = byId.get(f.origin);
    const to = byId.get(f.target);
    if (!from || !to) continue;
    // eta is the arrival round; a fleet covers its trip in distance() rounds.
    const trip = Math.max(1, distance(from, to));
    const progress = view.round != null ? Math.min(1, Math.max(0, 1 - (f.eta - view.round) / trip)) : 0.5;
    const x0 = from.x * S; const y0 = from.y * S;
    const x1 = to.x * S; const y1 = to.y * S;
    const x = x0 + (x1 - x0) * progress;
    const y = y0 + (y1 - y0) * progress;
    const angle = (Math.atan2(y1 - y0, x1 - x0) * 180) / Math.PI;
    const o = owner(f.owner_id);
    routes.push(html`<line x1=${x0} y1=${y0} x2=${x1} y2=${y1} stroke=${o.fill} stroke-width="1.5"
      stroke-dasharray="4 4" opacity="0.6" />`);
    markers.push(html`<g class="fleet">
      <title>Fleet ${f.id} of ${nameOf(f.owner_id)} (player ${f.owner_id}): ${shipsText(f.ships)} ships,
        planet ${f.origin} → ${f.target}, arriving in round ${f.eta}</title>
      ${fleetMarker(f.owner_id, x, y, angle)}
      <text x=${x} y=${y - 10} font-size="14" text-anchor="middle" fill="#111" stroke="#fff" stroke-width="3"
        paint-order="stroke">${sum(f.ships)}</text>
    </g>`);
  }

  const planetNodes = planets.map((p) => {
    const o = owner(p.owner_id);
    const r = radius(p);
    const x = p.x * S; const y = p.y * S;
    const whose = p.owner_id ? `${nameOf(p.owner_id)} (player ${p.owner_id})` : 'neutral';
    return html`<g class="planet">
      <title>Planet ${p.id}, ${whose}: ships ${shipsText(p.ships)}, production ${shipsText(p.production)}</title>
      <circle cx=${x} cy=${y} r=${r} fill=${o.fill} stroke=${o.stroke} stroke-width="2"
        stroke-dasharray=${p.owner_id ? null : '4 3'} />
      ${o.label && html`<text x=${x} y=${y + 7} font-size="20" font-weight="bold" text-anchor="middle"
        fill=${o.text}>${o.label}</text>`}
      <text x=${x} y=${y + r + 16} font-size="15" text-anchor="middle" fill="#111" stroke="#fff"
        stroke-width="3" paint-order="stroke">${shipsText(p.ships)}</text>
      <text x=${x} y=${y - r - 5} font-size="12" text-anchor="middle" fill="#555">#${p.id}</text>
    </g>`;
  });

  const status = view.game_over
    ? (view.end_reason || (view.winner ? `${nameOf(view.winner)} won` : 'game over'))
    : `Round ${view.round ?? '?'}${view.max_rounds ? ` / ${view.max_rounds}` : ''}`;
  const legend = [1, 2].map((id, k) => {
    const t = totals[id];
    const dq = view.disqualified?.[id - 1];
    const lx = left + 12 + k * (width / 2);
    const o = owner(id);
    return html`<g class="legend">
      ${fleetMarker(id, lx + 8, top + 45, 0)}
      <text x=${lx + 22} y=${top + 50} font-size="16">
        <tspan font-weight="bold">${id}. ${shorten(nameOf(id))}</tspan>
        <tspan fill="#333"> ${t.ships} ships, ${t.planets} pl.${dq ? ' · disqualified' : ''}</tspan>
      </text>
      ${view.winner === id && html`<text x=${lx + 22} y=${top + 68} font-size="15" font-weight="bold" fill=${o.stroke}>★ winner</text>`}
    </g>`;
  });

  // The title says the state in its own words (the visible header shows the end reason).
  const end = view.game_over
    ? ` Game over; ${view.winner ? `winner: ${nameOf(view.winner)} (player ${view.winner})` : 'no winner'}.`
    : '';
  const title = `Spacegoo board at round ${view.round ?? '?'}${view.max_rounds ? ` of ${view.max_rounds}` : ''}.${end} ${[1, 2].map((id) => `${nameOf(id)} (player ${id}): ${totals[id].ships} ships on ${totals[id].planets} planets and ${totals[id].fleets} fleets`).join('; ')}.`;

  // min-width keeps the labels legible on a phone; the page's board area scrolls instead.
  return html`<svg class="board-svg spacegoo" viewBox=${`${left} ${top} ${width} ${height}`}
      xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif" style="max-width: 900px; min-width: 540px; width: 100%;">
    <title>${title}</title>
    <desc>Planets are circles sized by production, filled orange with 1 for player 1, blue with 2 for player 2,
      grey and dashed when neutral; below each, its ships of types 0/1/2. Fleets are triangles (player 1) or
      squares (player 2) on the dashed line to their target, labelled with their ship count.</desc>
    <rect x=${left} y=${top} width=${width} height=${height} fill="#fbfbfd" />
    <text x=${left + 12} y=${top + 24} font-size="20" font-weight="bold">${status}</text>
    ${view.game_over && html`<text x=${left + width - 12} y=${top + 24} font-size="16" text-anchor="end"
      fill="#555">round ${view.round}</text>`}
    ${legend}
    <g class="routes">${routes}</g>
    <g class="planets">${planetNodes}</g>
    <g class="fleets">${markers}</g>
  </svg>`;
}

/** The move list's wording for an action (the page falls back to a generic one). */
export function label(a) {
  if (a === 'nop' || (a && 'nop' in a)) return 'Wait this round (nop)';
  const s = a.send;
  if (s) return `Send ${(s.ships || []).join('/')} ships from planet ${s.origin} to planet ${s.target}`;
  return null;
}
