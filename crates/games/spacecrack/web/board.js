// Space Crack board: the hex map of planets with owners and ships, and a panel
// with each player's planets, crack, income and command points (RULES.md, "The view").
import { h } from 'preact';
import htm from 'htm';
import { useState } from 'preact/hooks';
import { FONT, SEAT_COLOURS, pts, seatMark } from '/web/lib/seats.js';

const html = htm.bind(h);

// Pale versions for owned planets, so numbers on them stay dark-on-light.
const SEAT_PALE = ['#F8E1B0', '#D3EBF8', '#B3E0D3', '#EED5E4', '#B3D3E8', '#F3CCB3'];
const R = 10; // hex radius in viewBox units
const PW = 96; // panel width


// Doubled coordinates: columns step 2 in x, and a column's cells step 2 in y,
// so flat-topped hexes sit 1.5 R apart across and √3 R apart down.
const px = (p) => p.x * 0.75 * R;
const py = (p) => (p.y * Math.sqrt(3) * R) / 2;

function hexPoints(cx, cy, r) {
  const out = [];
  for (let i = 0; i < 6; i++) out.push([cx + r * Math.cos((i * Math.PI) / 3), cy + r * Math.sin((i * Math.PI) / 3)]);
  return pts(out);
}

function planet(p, ship, ox, oy, play) {
  const cx = ox + px(p), cy = oy + py(p);
  const owned = p.owner != null;
  const fill = owned ? SEAT_PALE[p.owner % SEAT_PALE.length] : '#EEEEEA';
  const tip = `planet ${p.id}, size ${p.size}` +
    (owned ? `, seat ${p.owner}'s` : ', unowned') + (p.core ? ', core' : '') + (p.frontier ? ', frontier' : '') +
    (ship ? `; ship ${ship.id} of seat ${ship.owner}, size ${ship.size}` : '');
  // On the play page a planet may be a button: select your ship, move it here, build.
  const does = play && play.on(p, ship);
  const body = html`
    <title>${does ? does.text : tip}</title>
    <polygon points=${hexPoints(cx, cy, R)} fill=${fill} stroke="#8a8a8a" stroke-width="0.4" />
    ${owned && html`<polygon points=${hexPoints(cx, cy, R * 0.86)} fill="none"
      stroke=${SEAT_COLOURS[p.owner % SEAT_COLOURS.length]} stroke-width="1.2"
      stroke-dasharray=${p.frontier ? '2.2 1.4' : null} />`}
    ${p.core && html`<polygon points=${hexPoints(cx, cy, R * 0.7)} fill="none" stroke="#333" stroke-width="0.45" />`}
    <text x=${cx} y=${cy + R * 0.72} font-size="3.2" text-anchor="middle" fill="#333" font-family=${FONT}>${p.size}</text>
    ${owned && html`<text x=${cx} y=${cy - R * 0.54} font-size="2.7" text-anchor="middle"
      font-weight="bold" fill="#222" font-family=${FONT}>${p.owner}</text>`}
    ${ship && seatMark(ship.owner, cx, cy + R * 0.02, R * 0.33, ship.size)}
    ${does && html`<polygon class=${`mark ${does.kind}`} points=${hexPoints(cx, cy, R * 0.93)} fill="none"
      stroke-width=${does.kind === 'selected' ? 1.6 : 1.1} stroke-dasharray=${does.kind === 'build' ? '1.2 1' : null} />`}`;
  if (!does) return html`<g>${body}</g>`;
  return html`<g class="board-move" role="button" tabindex="0" aria-label=${does.text}
      data-testid=${does.kind === 'select' || does.kind === 'selected' ? 'board-select' : 'board-move'}
      onClick=${does.run} onKeyDown=${(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); does.run(); } }}>
    ${body}</g>`;
}

/**
 * What clicking each planet does while the seat is to answer (`ctx.moves`): click your
 * ship to select it, then a highlighted neighbour to move there; with no ship selected,
 * a planet marked with a dashed ring builds a ship. End turn is a button under the map;
 * resigning is the page's.
 */
function interaction(moves, play, selected, select) {
  const moveTo = new Map(); // ship -> (planet -> action)
  const builds = new Map(); // planet -> action
  for (const a of moves) {
    if (a?.type === 'move_ship') {
      if (!moveTo.has(a.ship)) moveTo.set(a.ship, new Map());
      moveTo.get(a.ship).set(a.planet, a);
    } else if (a?.type === 'build_ship') builds.set(a.planet, a);
  }
  return {
    on(p, ship) {
      // Where the selected ship may go comes first: onto your own ship (reinforcing it)
      // is a move, not a change of selection.
      const move = selected != null && moveTo.get(selected)?.get(p.id);
      if (move) return { kind: 'target', text: `Move ship ${selected} to planet ${p.id}`, run: () => play(move) };
      if (ship && moveTo.has(ship.id)) {
        const picked = selected === ship.id;
        return { kind: picked ? 'selected' : 'select', text: picked ? `Ship ${ship.id} selected (click to drop)` : `Select ship ${ship.id}`,
          run: () => select(picked ? null : ship.id) };
      }
      const build = selected == null && builds.get(p.id);
      if (build) return { kind: 'build', text: `Build a ship on planet ${p.id}`, run: () => play(build) };
      return null;
    },
  };
}

/**
 * The board with a selected ship remembered between clicks (reset by each new step),
 * and under it "End turn" when the rules allow passing (`allow_pass`). Escape drops
 * the selection.
 */
function Playable({ view, ctx }) {
  const [selected, select] = useState(null);
  const end = ctx.moves.find((a) => a?.type === 'end_turn');
  const me = view.players?.find((p) => p.seat === ctx.seat);
  const onKeyDown = (e) => { if (e.key === 'Escape' && selected != null) { e.preventDefault(); select(null); } };
  return html`<div onKeyDown=${onKeyDown}>
    ${draw(view, ctx, interaction(ctx.moves, ctx.play, selected, select))}
    ${end && html`<p class="links" style="margin: 0.4rem 0 0">
      <button type="button" data-testid="board-pass" onClick=${() => ctx.play(end)}>
        End turn${me ? ` (keep ${me.command_points} command point${me.command_points === 1 ? '' : 's'})` : ''}</button>
      ${selected != null && html`<button type="button" onClick=${() => select(null)}>Drop ship ${selected}</button>`}
    </p>`}
  </div>`;
}

/** Every move can be made on this board; the page keeps its move list folded away. */
export const playsOnTheBoard = true;

export function render(view, ctx) {
  if (ctx && ctx.moves && ctx.play) return html`<${Playable} key=${ctx.step} view=${view} ctx=${ctx} />`;
  return draw(view, ctx, null);
}

function draw(view, ctx, play) {
  const seats = (ctx && ctx.seats) || [];
  const me = ctx && ctx.seat != null ? ctx.seat : null;
  const planets = view.planets || [];
  const players = view.players || [];
  const name = (i) => seats[i] || `seat ${i}`;
  const short = (s) => (s.length > 12 ? s.slice(0, 11) + '…' : s);

  // Ships by planet; fall back to planet.ship ids if the list is missing.
  const shipById = new Map((view.ships || []).map((s) => [s.id, s]));
  const shipOn = (p) => (p.ship != null ? shipById.get(p.ship) : null);

  // Board extent from the planets themselves (plus a hex radius of margin).
  const xs = planets.map(px), ys = planets.map(py);
  const minX = Math.min(...xs) - R, maxX = Math.max(...xs) + R;
  const minY = Math.min(...ys) - R, maxY = Math.max(...ys) + R;
  const bw = maxX - minX + 2, bh = maxY - minY + 2;
  const ox = 1 - minX, oy = 1 - minY;

  const acting = new Set(view.to_act || []);
  const winners = new Set(view.winners || []);
  const total = view.config && view.config.turns ? view.config.turns : view.turn + view.turns_left - 1;
  const headline = view.over
    ? `Game over · winner${winners.size === 1 ? '' : 's'}: ${[...winners].map(name).join(', ') || 'none'}`
    : `Turn ${view.turn} of ${total} · ${view.turns_left} left`;
  const title = `Space Crack, step ${(ctx && ctx.step) ?? ''}: ${headline}. ` +
    players.map((p) => `${name(p.seat)} ${p.planets} planets, ${p.crack} crack`).join('; ');

  // Each player gets a small card: planets (the score), crack and income, points, status.
  const cardH = 25;
  const cards = players.map((p, i) => {
    const y = 16 + i * (cardH + 2);
    const status = p.status !== 'playing' ? p.status // the ejection reason goes in the tooltip
      : p.eliminated ? 'eliminated'
      : winners.has(p.seat) ? '★ winner'
      : view.over ? ''
      : p.stuck ? 'stuck'
      : p.finished ? 'done this turn'
      : acting.has(p.seat) ? '◀ acting' : 'waiting';
    return html`<g transform=${`translate(0 ${y})`}>
      ${p.ejected && html`<title>ejected: ${p.ejected}</title>`}
      <rect x="1" y="0" width=${PW - 2} height=${cardH} rx="2"
        fill=${acting.has(p.seat) && !view.over ? '#fff3c4' : '#fafafa'} stroke="#bbb" stroke-width="0.4" />
      ${seatMark(p.seat, 7, 6.5, 3.2, p.seat)}
      <text x="13" y="8.2" font-size="5" font-weight="bold" fill="#111" font-family=${FONT}>
        ${short(name(p.seat))}${me === p.seat ? ' (you)' : ''}
      </text>
      <text x="5" y="15" font-size="4.2" fill="#111" font-family=${FONT}>
        ${p.planets} planets · ${p.crack} crack (+${p.income})
      </text>
      <text x="5" y="21.5" font-size="4.2" fill="#333" font-family=${FONT}>
        ${p.command_points} command pts${status ? ` · ${status}` : ''}
      </text>
    </g>`;
  });
  const legendY = 16 + players.length * (cardH + 2) + 5;
  const legend = [
    'marker number: ship size',
    'small number: planet size',
    'top number: owner seat',
    'black inner ring: core planet',
    'dashed ring: frontier planet',
  ];

  const W = bw + PW + 4;
  const H = Math.max(bh, legendY + legend.length * 5.5 + 2);
  return html`<svg viewBox=${`0 0 ${W.toFixed(2)} ${H.toFixed(2)}`} width="100%" role="img"
      style="max-height: 90vh; background: #fff">
    <title>${title}</title>
    ${planets.map((p) => planet(p, shipOn(p), ox, oy, play))}
    <g transform=${`translate(${bw + 3} 0)`}>
      <text x="2" y="6.5" font-size="5.2" font-weight="bold" fill="#111" font-family=${FONT}>Space Crack</text>
      <text x="2" y="12.5" font-size="4.4" fill="#111" font-family=${FONT}>${headline}</text>
      ${cards}
      ${legend.map((t, i) => html`<text x="2" y=${legendY + i * 5.5} font-size="3.6" fill="#444"
        font-family=${FONT}>${t}</text>`)}
    </g>
  </svg>`;
}

/** The move list's wording for an action (the page falls back to a generic one). */
export function label(a) {
  if (a.type === 'move_ship') return `Move ship ${a.ship} to planet ${a.planet}`;
  if (a.type === 'build_ship') return `Build a ship on planet ${a.planet}`;
  if (a.type === 'end_turn') return 'End turn';
  return null;
}
