// Spacegoo's board for the browser: the round, each player's totals, the map (planets
// sized by production and filled by owner, their ship counts, fleets on their way), and a
// list of every planet and fleet. Served as /boards/spacegoo.js; the page calls
// render(view, {seats, seat, step, moves, play}) and mounts the returned Preact vnode.
//
// When the seat owes its order (`moves` and `play` given), the map is played: click one
// of your planets that has ships (board-select), then the planet to send to (board-move);
// a panel above the map then takes how many ships of each type to send, says when they
// land and what should happen there, and sends the order ("Send", the first board-move).
// "Do nothing this round" (board-pass) sends `nop`; Cancel or Escape drops the order.
// The legal list is only a sample (all or half of a planet's ships), so the send is built
// here from the view and the server judges it.
//
// view: {planets: [{id, x, y, owner_id, ships: [a,b,c], production: [a,b,c]}],
//        fleets: [{id, owner_id, ships, origin, target, eta, alive}],
//        round, max_rounds, player_id?, game_over, winner, end_reason, disqualified: [..],
//        your_command?}
// owner_id 0 is neutral; owner 1 is seat 0 and owner 2 is seat 1.
import { h } from 'preact';
import htm from 'htm';
import { useEffect, useRef, useState } from 'preact/hooks';
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
const MARGIN = 76; // room around the outer planets for their labels (larger on a phone)

const sum = (xs) => (xs ?? []).reduce((a, b) => a + b, 0);
const shipsText = (ships) => (ships ?? []).join('/');

/** Travel time as the game computes it: the Euclidean distance rounded up. */
const distance = (a, b) => Math.ceil(Math.hypot(a.x - b.x, a.y - b.y));

/** Planet radius in pixels: grows with total production, capped to avoid overlaps. */
const radius = (planet) => Math.min(14 + 1.6 * sum(planet.production), 31);

// Rock, paper, scissors: type 0 beats 1, 1 beats 2, 2 beats 0.
const BEATS = ['1', '2', '0'];

function fleetMarker(ownerId, x, y, angle) {
  const o = owner(ownerId);
  // Owner 1: a triangle pointing along the flight; owner 2: a square (turned likewise).
  const shape = ownerId === 1
    ? html`<polygon points="10,0 -7,-7.5 -7,7.5" />`
    : html`<rect x="-6.5" y="-6.5" width="13" height="13" />`;
  return html`<g transform=${`translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${angle.toFixed(1)})`}
    fill=${o.fill} stroke=${o.stroke} stroke-width="1.2">${shape}</g>`;
}

/** A player's fleet shape as a small inline picture, for the lines above and below the map. */
const playerMark = (id) => html`<svg class="sg-mark" viewBox="-10 -10 21 20" width="16" height="16"
  aria-hidden="true" focusable="false">${fleetMarker(id, 0, 0, 0)}</svg>`;

// The board's own styles (the page's stylesheet is shared by every game). The map scales
// to the width it gets; below 560 px it shows each planet's total ships in larger type
// instead of the three counts, and leaves out planet numbers and landing rounds (the list
// under the map and the order panel have them all).
const STYLE = `
.sg { container-type: inline-size; }
.sg .sg-svg { display: block; width: 100%; max-width: 900px; height: auto; max-height: 75vh; margin: 0 auto; }
.sg .sg-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.1rem 1rem; margin: 0 0 0.4rem; }
.sg .sg-head p { margin: 0; }
.sg .sg-players { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.1rem 1rem; font-size: 0.95rem; }
.sg .sg-mark { vertical-align: -2px; margin-right: 0.25rem; }
.sg .sg-panel { border: 1px solid #9a9ca5; border-radius: 8px; background: #f5f6f8; padding: 0.5rem 0.6rem; margin: 0 0 0.5rem; }
.sg .sg-panel p { margin: 0.2rem 0; }
.sg .sg-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; margin: 0.35rem 0; }
.sg .sg-row label { display: flex; align-items: center; gap: 0.3rem; font-weight: 600; flex: 1 1 14rem; min-width: 0; }
.sg .sg-row select { flex: 1 1 auto; min-width: 0; width: 100%; }
.sg .sg-ships { display: flex; flex-wrap: wrap; gap: 0.4rem 0.6rem; margin: 0.35rem 0; }
.sg .sg-ships label { flex: 1 1 4.5rem; display: grid; gap: 0.1rem; font-weight: 600; min-width: 0; }
.sg .sg-ships small { font-weight: 400; color: #5c5c66; }
.sg .sg-ships input { min-width: 0; }
.sg .sg-forecast { font-size: 0.95rem; }
.sg .sg-hit { cursor: pointer; }
.sg .sg-hit:focus { outline: none; }
.sg .sg-focus { display: none; }
.sg .sg-hit:focus-visible .sg-focus { display: inline; }
.sg .sg-hit:hover .mark, .sg .sg-hit:focus .mark { stroke-width: 7; }
.sg .mark { fill: none; }
.sg .mark.select { stroke: #0072B2; }
.sg .mark.selected { stroke: #000; }
.sg .mark.target { stroke: #009E73; }
.sg .sg-tot { display: none; }
.sg .sg-list { margin-top: 0.4rem; }
.sg .sg-list summary { cursor: pointer; min-height: 44px; line-height: 2; padding: 0.3rem 0; }
.sg .sg-list table { border-collapse: collapse; font-size: 0.9rem; margin: 0.25rem 0 0.75rem; }
.sg .sg-list caption { text-align: left; font-weight: 700; padding: 0.2rem 0; }
.sg .sg-list th, .sg .sg-list td { padding: 0.2rem 0.6rem 0.2rem 0; text-align: left; border-bottom: 1px solid #e3e4e8; }
.sg .sg-list td.n { font-variant-numeric: tabular-nums; }
@container (max-width: 560px) {
  .sg .sg-trip { display: none; }
  .sg .sg-tot { display: inline; font-size: 38px; }
  .sg .sg-id, .sg .sg-eta { display: none; }
  .sg .sg-tag { font-size: 30px; }
  .sg .sg-fl { font-size: 28px; }
  .sg .sg-own { font-size: 28px; }
}
`;

function shorten(name, max = 18) {
  return name.length > max ? `${name.slice(0, max - 1)}…` : name;
}

/** Enter and Space press an SVG group that acts as a button, as a click does. */
const pressKeys = (run) => (e) => {
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    run();
  }
};

/** Every move can be made on this board; the page keeps its move list folded away. */
export const playsOnTheBoard = true;

export function render(view, ctx = {}) {
  const me = view.player_id ?? (ctx.seat != null ? ctx.seat + 1 : null);
  if (ctx.moves && ctx.moves.length > 0 && ctx.play && me && !view.game_over && !view.your_command) {
    // One order per round: what is being put together lasts until the round resolves
    // (the step also moves when the other seat's order arrives, so it is not the key).
    return html`<${Playable} key=${`round-${view.round}`} view=${view} ctx=${ctx} me=${me} />`;
  }
  return html`<${Static} view=${view} ctx=${ctx} />`;
}

/** The board without controls (replays, watching, waiting for the round to resolve). */
function Static({ view, ctx }) {
  return draw(view, ctx, null, null, null, usePortraitPhone());
}

// On a phone held upright the map is drawn turned a quarter (it is wider than high, and
// point-symmetric, so nothing else changes): its planets then come out larger.
const PORTRAIT = '(max-width: 600px) and (orientation: portrait)';
function usePortraitPhone() {
  const ask = () => typeof matchMedia === 'function' && matchMedia(PORTRAIT).matches;
  const [portrait, setPortrait] = useState(ask);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return undefined;
    const query = matchMedia(PORTRAIT);
    const changed = () => setPortrait(query.matches);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);
  return portrait;
}

/** The order being put together: source planet, then target, then ships per type. */
function Playable({ view, ctx, me }) {
  const [order, setOrder] = useState({ source: null, target: null, ships: ['', '', ''] });
  const turned = usePortraitPhone();
  const sendRef = useRef(null);
  const rootRef = useRef(null);
  const focusNext = useRef(null); // 'send', or a planet id to focus after the next render

  const planets = view.planets ?? [];
  const byId = new Map(planets.map((p) => [p.id, p]));
  const sources = planets.filter((p) => p.owner_id === me && sum(p.ships) > 0);
  const source = order.source != null ? byId.get(order.source) : null;
  const target = source && order.target != null ? byId.get(order.target) : null;
  // What will leave: whole numbers from 0 to what is on the planet (never negative: a
  // negative count disqualifies its sender).
  const ships = source
    ? order.ships.map((v, k) => Math.max(0, Math.min(source.ships[k], Math.floor(Number(v)) || 0)))
    : [0, 0, 0];

  const all = (p) => p.ships.map((n) => String(Math.max(0, n)));
  const pickSource = (id) => setOrder({ source: id, target: null, ships: all(byId.get(id)) });
  const pickTarget = (id, focus = true) => {
    if (focus) focusNext.current = 'send';
    setOrder((o) => ({ ...o, target: id }));
  };
  const cancel = () => {
    if (order.source == null) return;
    const within = rootRef.current && rootRef.current.contains(document.activeElement);
    if (within || document.activeElement === document.body) focusNext.current = order.source;
    setOrder({ source: null, target: null, ships: ['', '', ''] });
  };
  const send = () => {
    if (!source || !target || sum(ships) === 0) return;
    ctx.play({ send: { origin: source.id, target: target.id, ships } });
  };
  const nop = () => ctx.play('nop');

  useEffect(() => {
    const next = focusNext.current;
    focusNext.current = null;
    if (next === 'send') sendRef.current?.focus();
    else if (next != null) rootRef.current?.querySelector(`[data-planet="${next}"]`)?.focus();
  });
  // Escape drops the order wherever the focus is (a clicked planet may have lost it).
  useEffect(() => {
    if (order.source == null) return undefined;
    const onKey = (e) => {
      if (e.key === 'Escape' && !e.defaultPrevented) {
        e.preventDefault();
        cancel();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  const play = {
    me,
    source,
    target,
    /** What a planet does when clicked now, or null. */
    on(p) {
      const tip = `planet ${p.id} (${p.owner_id === me ? 'yours' : p.owner_id ? 'the opponent’s' : 'neutral'}, ships ${shipsText(p.ships)})`;
      if (!source) {
        if (p.owner_id !== me || sum(p.ships) === 0) return null;
        return { kind: 'source', text: `Send ships from ${tip}`, run: () => pickSource(p.id) };
      }
      if (p.id === source.id) return { kind: 'selected', text: `Sending from ${tip}; press to cancel`, run: cancel };
      if (target && p.id === target.id) {
        return { kind: 'chosen', text: `Sending to ${tip}`, run: () => sendRef.current?.focus() };
      }
      return { kind: 'target', text: `Send to ${tip}, ${distance(source, p)} rounds away`, run: () => pickTarget(p.id) };
    },
  };

  const round = view.round ?? 0;
  const nopButton = html`<button type="button" data-testid="board-pass" onClick=${nop}>Do nothing this round</button>`;
  let panel;
  if (!source) {
    panel = html`<div class="sg-panel" role="group" aria-label="Your order">
      <p><strong>Your order for round ${round}.</strong> ${sources.length
        ? 'Pick one of your planets (solid ring) to send ships from, or do nothing.'
        : 'None of your planets has ships to send: do nothing this round.'}</p>
      <div class="sg-row">${nopButton}</div>
    </div>`;
  } else if (!target) {
    panel = html`<div class="sg-panel" role="group" aria-label="Your order">
      <p><strong>From planet ${source.id}</strong> (ships ${shipsText(source.ships)}).
        Now pick where to send them (dashed ring); Escape cancels.</p>
      <div class="sg-row">
        <button type="button" onClick=${cancel}>Cancel</button>
        ${nopButton}
      </div>
    </div>`;
  } else {
    const d = distance(source, target);
    const eta = round + d;
    const late = view.max_rounds != null && eta >= view.max_rounds;
    const whose = (id) => (id === me ? 'yours' : id ? `${ctx.seats?.[id - 1] ?? `player ${id}`}’s` : 'neutral');
    // No battle forecast here: the battle rule lives once, in the rules crate.
    const outlook = late ? `The game ends after round ${view.max_rounds - 1}, before this fleet lands.` : null;
    const setShips = (k, value) => setOrder((o) => ({ ...o, ships: o.ships.map((v, i) => (i === k ? value : v)) }));
    const preset = (fn) => setOrder((o) => ({ ...o, ships: source.ships.map((n) => String(Math.max(0, fn(n)))) }));
    const others = planets.filter((p) => p.id !== source.id);
    panel = html`<form class="sg-panel" aria-label="Your order" noValidate
        onSubmit=${(e) => { e.preventDefault(); send(); }}>
      <div class="sg-row">
        <label>From <select value=${source.id} aria-label="Send from planet"
            onChange=${(e) => setOrder((o) => ({ ...o, source: Number(e.currentTarget.value),
              target: Number(e.currentTarget.value) === o.target ? null : o.target,
              ships: all(byId.get(Number(e.currentTarget.value))) }))}>
          ${sources.map((p) => html`<option value=${p.id}>planet ${p.id} (${shipsText(p.ships)})</option>`)}
        </select></label>
        <label>To <select value=${target.id} aria-label="Send to planet"
            onChange=${(e) => pickTarget(Number(e.currentTarget.value), false)}>
          ${others.map((p) => html`<option value=${p.id}>planet ${p.id} · ${whose(p.owner_id)} · ${distance(source, p)} rounds</option>`)}
        </select></label>
      </div>
      <p>Distance ${d}: the fleet lands in round ${eta}${late ? '' : ` (${d} rounds from now)`}.</p>
      <div class="sg-ships">
        ${[0, 1, 2].map((k) => html`<label>
          <span>Type ${k} <small>(beats ${BEATS[k]})</small></span>
          <input type="number" inputmode="numeric" min="0" max=${source.ships[k]} step="1"
            data-testid=${`ships-${k}`} value=${order.ships[k]}
            onInput=${(e) => setShips(k, e.currentTarget.value)} />
          <small>of ${source.ships[k]}</small>
        </label>`)}
      </div>
      <div class="sg-row">
        <span>Set:</span>
        <button type="button" onClick=${() => preset((n) => n)}>All</button>
        <button type="button" onClick=${() => preset((n) => Math.floor(n / 2))}>Half</button>
        <button type="button" onClick=${() => preset(() => 0)}>None</button>
      </div>
      ${outlook && html`<p class="sg-forecast" aria-live="polite">${outlook}</p>`}
      ${sum(ships) === 0 && html`<p class="form-error">Choose at least one ship to send.</p>`}
      <div class="sg-row">
        <button type="submit" class="primary" data-testid="board-move" ref=${sendRef}
          disabled=${sum(ships) === 0}>Send ${shipsText(ships)} to planet ${target.id}</button>
        <button type="button" onClick=${cancel}>Cancel</button>
        ${nopButton}
      </div>
    </form>`;
  }
  return draw(view, ctx, play, panel, rootRef, turned);
}

function draw(view, ctx, play, panel, rootRef, turned) {
  const planets = view.planets ?? [];
  const fleets = view.fleets ?? [];
  const byId = new Map(planets.map((p) => [p.id, p]));
  const nameOf = (ownerId) => ctx.seats?.[ownerId - 1] ?? `player ${ownerId}`;
  const me = view.player_id ?? (ctx.seat != null ? ctx.seat + 1 : null);

  // Where a planet is drawn: map units to pixels, turned a quarter on an upright phone.
  const pos = (p) => (turned ? [-p.y * S, p.x * S] : [p.x * S, p.y * S]);
  // Fit the view box to the planets, with room for the labels around them.
  const xs = planets.map((p) => pos(p)[0]);
  const ys = planets.map((p) => pos(p)[1]);
  const minX = Math.min(0, ...xs) - MARGIN;
  const maxX = Math.max(0, ...xs) + MARGIN;
  const minY = Math.min(0, ...ys) - MARGIN;
  const maxY = Math.max(0, ...ys) + MARGIN;
  const width = Math.max(maxX - minX, 420);
  const left = (minX + maxX) / 2 - width / 2;
  const top = minY;
  const height = maxY - top;

  // Totals per player, the quickest read of who is ahead.
  const totals = { 1: { ships: 0, planets: 0, fleets: 0 }, 2: { ships: 0, planets: 0, fleets: 0 } };
  for (const p of planets) {
    if (totals[p.owner_id]) { totals[p.owner_id].ships += sum(p.ships); totals[p.owner_id].planets++; }
  }
  for (const f of fleets) {
    if (totals[f.owner_id]) { totals[f.owner_id].ships += sum(f.ships); totals[f.owner_id].fleets++; }
  }

  // While planets are buttons, nothing else on the map takes the pointer.
  const still = play ? 'none' : null;
  const routes = [];
  const markers = [];
  // Labels already placed: fleets that left one planet together (or fly one route)
  // sit on one spot, so a label that would cover an earlier one moves up a line.
  // A label's width is guessed from its length (0.6 em a character at 14 units).
  const placed = [];
  const labelY = (x, y, text) => {
    const width = 8.4 * text.length;
    const covers = ([px, py, pw], ly) => Math.abs(px - x) < (pw + width) / 2 && Math.abs(py - ly) < 14;
    let ly = y - 11;
    while (placed.some((label) => covers(label, ly))) ly -= 15;
    placed.push([x, ly, width]);
    return ly;
  };
  // The planets' own labels stay where they are: each planet's id above it (room for
  // "from "/"to " too) and its ships below it (the baseline of the hanging text).
  for (const p of planets) {
    const [x, y] = pos(p);
    const r = radius(p);
    placed.push([x, y - r - 6, 7.8 * `from #${p.id}`.length]);
    placed.push([x, y + r + 17, 9 * shipsText(p.ships).length]);
  }
  for (const f of fleets) {
    const from = byId.get(f.origin);
    const to = byId.get(f.target);
    if (!from || !to) continue;
    // eta is the arrival round; a fleet covers its trip in distance() rounds.
    const trip = Math.max(1, distance(from, to));
    const progress = view.round != null ? Math.min(1, Math.max(0, 1 - (f.eta - view.round) / trip)) : 0.5;
    const [x0, y0] = pos(from);
    const [x1, y1] = pos(to);
    const x = x0 + (x1 - x0) * progress;
    const y = y0 + (y1 - y0) * progress;
    const angle = (Math.atan2(y1 - y0, x1 - x0) * 180) / Math.PI;
    const o = owner(f.owner_id);
    routes.push(html`<line x1=${x0} y1=${y0} x2=${x1} y2=${y1} stroke=${o.fill} stroke-width="2"
      stroke-dasharray="5 5" opacity="0.7" />`);
    markers.push(html`<g class="fleet" pointer-events=${still}>
      <title>Fleet ${f.id} of ${nameOf(f.owner_id)} (player ${f.owner_id}): ${shipsText(f.ships)} ships,
        planet ${f.origin} → ${f.target}, landing in round ${f.eta}</title>
      ${fleetMarker(f.owner_id, x, y, angle)}
      <text class="sg-fl" x=${x} y=${labelY(x, y, `${sum(f.ships)} · R${f.eta}`)} font-size="14" text-anchor="middle" fill="#111" stroke="#fff" stroke-width="3"
        paint-order="stroke">${sum(f.ships)}<tspan class="sg-eta"> · R${f.eta}</tspan></text>
    </g>`);
  }

  // The planned route, from the chosen source to the chosen target.
  let plan = null;
  if (play?.source && play?.target) {
    const a = play.source; const b = play.target;
    const [ax, ay] = pos(a); const [bx, by] = pos(b);
    const len = Math.hypot(bx - ax, by - ay);
    const ux = (bx - ax) / len; const uy = (by - ay) / len;
    const x0 = ax + ux * (radius(a) + 8); const y0 = ay + uy * (radius(a) + 8);
    const x1 = bx - ux * (radius(b) + 12); const y1 = by - uy * (radius(b) + 12);
    const angle = (Math.atan2(uy, ux) * 180) / Math.PI;
    plan = html`<g class="plan" pointer-events="none">
      <line x1=${x0} y1=${y0} x2=${x1} y2=${y1} stroke="#000" stroke-width="4" stroke-dasharray="12 6" />
      <polygon points="0,0 -16,-9 -16,9" fill="#000"
        transform=${`translate(${x1.toFixed(1)} ${y1.toFixed(1)}) rotate(${angle.toFixed(1)})`} />
    </g>`;
  }

  // While giving an order, the opponent's planets come first, then neutral ones, then
  // yours: the order Tab visits them in when choosing where to send.
  const rank = (p) => (p.owner_id === me ? 2 : p.owner_id === 0 ? 1 : 0);
  const drawn = play ? planets.slice().sort((a, b) => rank(a) - rank(b) || a.id - b.id) : planets;
  const planetNodes = drawn.map((p) => {
    const o = owner(p.owner_id);
    const r = radius(p);
    const [x, y] = pos(p);
    const whose = p.owner_id ? `${nameOf(p.owner_id)} (player ${p.owner_id})` : 'neutral';
    const info = `Planet ${p.id}, ${whose}: ships ${shipsText(p.ships)}, production ${shipsText(p.production)}`;
    const does = play ? play.on(p) : null;
    // Rings tell what a click does: solid for a planet to send from, thick black for the
    // chosen one, dashed for where the ships can go; "from" and "to" name the chosen pair.
    const ring = does && {
      source: html`<circle class="mark select" cx=${x} cy=${y} r=${r + 7} stroke-width="4" />`,
      selected: html`<circle class="mark selected" cx=${x} cy=${y} r=${r + 7} stroke-width="6" />`,
      target: html`<circle class="mark target" cx=${x} cy=${y} r=${r + 7} stroke-width="4" stroke-dasharray="7 5" />`,
      chosen: html`<circle class="mark selected" cx=${x} cy=${y} r=${r + 7} stroke-width="6" stroke-dasharray="7 5" />`,
    }[does.kind];
    const tag = does && (does.kind === 'selected' ? 'from' : does.kind === 'chosen' ? 'to' : null);
    const body = html`
      <title>${does ? `${does.text}. ${info}` : info}</title>
      ${does && html`<circle cx=${x} cy=${y} r=${Math.max(r + 10, 34)} fill="transparent" />`}
      ${does && html`<circle class="sg-focus" cx=${x} cy=${y} r=${r + 14} fill="none" stroke="#E69F00" stroke-width="5" />`}
      <circle cx=${x} cy=${y} r=${r} fill=${o.fill} stroke=${o.stroke} stroke-width="2"
        stroke-dasharray=${p.owner_id ? null : '4 3'} />
      ${ring}
      ${o.label && html`<text class="sg-own" x=${x} y=${y + 1} dominant-baseline="central" font-size="20"
        font-weight="bold" text-anchor="middle" fill=${o.text}>${o.label}</text>`}
      <text class="sg-trip" x=${x} y=${y + r + 5} dominant-baseline="hanging" font-size="15" text-anchor="middle"
        fill="#111" stroke="#fff" stroke-width="3" paint-order="stroke">${shipsText(p.ships)}</text>
      <text class="sg-tot" x=${x} y=${y + r + 4} dominant-baseline="hanging" font-size="15" text-anchor="middle"
        fill="#111" font-weight="bold" stroke="#fff" stroke-width="4" paint-order="stroke">${sum(p.ships)}</text>
      <text class=${tag ? 'sg-tag' : 'sg-id'} x=${x} y=${y - r - 6} font-size="13" text-anchor="middle" fill="#444"
        font-weight=${tag ? 'bold' : null}>${tag ? `${tag} ` : ''}#${p.id}</text>`;
    if (!does) return html`<g class="planet">${body}</g>`;
    const testid = does.kind === 'source' || does.kind === 'selected' ? 'board-select' : 'board-move';
    return html`<g class="planet sg-hit" role="button" tabindex="0" aria-label=${does.text} data-planet=${p.id}
        data-testid=${testid} aria-pressed=${does.kind === 'selected' || does.kind === 'chosen' ? 'true' : null}
        onClick=${does.run} onKeyDown=${pressKeys(does.run)}>${body}</g>`;
  });

  // Above the map: the round and each player's totals, in page text that wraps on a phone.
  const status = view.game_over
    ? (view.end_reason || (view.winner ? `${nameOf(view.winner)} won` : 'Game over'))
    : `Round ${view.round ?? '?'}${view.max_rounds ? ` of ${view.max_rounds}` : ''}`;
  const left_ = !view.game_over && view.max_rounds && view.round != null
    ? `${view.max_rounds - view.round} rounds left` : view.game_over ? `after round ${view.round}` : '';
  const players = [1, 2].map((id) => {
    const t = totals[id];
    const dq = view.disqualified?.[id - 1];
    const who = `${me === id ? ' (you)' : ''}: `;
    return html`<li>${playerMark(id)}<strong>${id}. ${shorten(nameOf(id))}</strong>${who}${t.ships} ships, ${t.planets} planet${t.planets === 1 ? '' : 's'}, ${t.fleets} fleet${t.fleets === 1 ? '' : 's'}${
      dq ? html` · <strong>disqualified</strong> (${dq})` : ''}${view.winner === id ? html` · <strong>★ winner</strong>` : ''}</li>`;
  });
  const sealed = view.your_command && !view.game_over
    ? html`<p>Your order this round: <strong>${label(view.your_command) ?? JSON.stringify(view.your_command)}</strong> (sealed until the round resolves)</p>`
    : null;

  // The title says the state in its own words.
  const end = view.game_over
    ? ` Game over; ${view.winner ? `winner: ${nameOf(view.winner)} (player ${view.winner})` : 'no winner'}.`
    : '';
  const title = `Spacegoo map at round ${view.round ?? '?'}${view.max_rounds ? ` of ${view.max_rounds}` : ''}.${end} ${[1, 2].map((id) => `${nameOf(id)} (player ${id}): ${totals[id].ships} ships on ${totals[id].planets} planets and ${totals[id].fleets} fleets`).join('; ')}.`;

  // Under the map: every planet by owner and every fleet, as text.
  const order = (p) => (p.owner_id === 0 ? 3 : p.owner_id === me ? 0 : p.owner_id);
  const listed = planets.slice().sort((a, b) => order(a) - order(b) || a.id - b.id);
  const ownerText = (id) => (id ? `${id}. ${shorten(nameOf(id), 14)}${id === me ? ' (you)' : ''}` : 'neutral');
  const list = html`<details class="sg-list">
    <summary>Planets and fleets as a list</summary>
    <table>
      <caption>Planets (ships and production per type 0/1/2)</caption>
      <thead><tr><th scope="col">Planet</th><th scope="col">Owner</th><th scope="col">Ships</th><th scope="col">Production</th></tr></thead>
      <tbody>${listed.map((p) => html`<tr>
        <td>#${p.id}</td><td>${ownerText(p.owner_id)}</td>
        <td class="n">${shipsText(p.ships)} (${sum(p.ships)})</td><td class="n">${shipsText(p.production)}</td></tr>`)}</tbody>
    </table>
    ${fleets.length === 0 ? html`<p class="muted">No fleets in flight.</p>` : html`<table>
      <caption>Fleets in flight</caption>
      <thead><tr><th scope="col">Owner</th><th scope="col">Ships</th><th scope="col">Route</th><th scope="col">Lands</th></tr></thead>
      <tbody>${fleets.slice().sort((a, b) => a.eta - b.eta || a.id - b.id).map((f) => html`<tr>
        <td>${ownerText(f.owner_id)}</td><td class="n">${shipsText(f.ships)} (${sum(f.ships)})</td>
        <td>#${f.origin} → #${f.target}</td>
        <td class="n">round ${f.eta}${view.round != null && !view.game_over ? ` (in ${f.eta - view.round})` : ''}</td></tr>`)}</tbody>
    </table>`}
  </details>`;

  return html`<div class="sg" ref=${rootRef}>
    <style>${STYLE}</style>
    <div class="sg-head">
      <p><strong data-testid="round">${status}</strong>${left_ && html` <span class="muted">(${left_})</span>`}</p>
      <ul class="sg-players" aria-label="Players">${players}</ul>
    </div>
    ${sealed}
    ${panel}
    <svg class="board-svg spacegoo sg-svg" viewBox=${`${left} ${top} ${width} ${height}`} role="img"
        xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif">
      <title>${title}</title>
      <desc>Planets are circles sized by production, filled orange with 1 for player 1, blue with 2 for player 2,
        grey and dashed when neutral; below each, its ships of types 0/1/2 (on a narrow screen, their total, and the planet numbers only in the list below). Fleets are
        triangles (player 1) or squares (player 2) on the dashed line to their target, labelled with their ship count
        and R with the round they land in.${play ? ' While you give your order, a solid ring marks a planet you can send from, a dashed ring one you can send to.' : ''}</desc>
      <rect x=${left} y=${top} width=${width} height=${height} fill="#fbfbfd" />
      <g class="routes" pointer-events=${still}>${routes}</g>
      ${plan}
      <g class="planets">${planetNodes}</g>
      <g class="fleets">${markers}</g>
    </svg>
    ${list}
  </div>`;
}

/** The move list's wording for an action (the page falls back to a generic one). */
export function label(a) {
  if (a === 'nop' || (a && typeof a === 'object' && 'nop' in a)) return 'Do nothing this round (nop)';
  const s = a && a.send;
  if (s) return `Send ${(s.ships || []).join('/')} ships from planet ${s.origin} to planet ${s.target}`;
  return null;
}
