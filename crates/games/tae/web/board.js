// Tigris & Euphrates in space: the grid with terrain, colonies, artifacts,
// leaders and region outlines, then a panel with the turn, the owed decision
// and each player's public (and, in a seat's own view, private) numbers.
//
// On the play page (ctx.play) an order panel comes first: your hand, your leaders,
// your weapon ships, swap and end turn, or the conflict / harvest decision you owe.
// Pick something there (or one of your leaders on the grid) and the cells where the
// legal list (ctx.moves, which is complete for this game) allows it light up.
import { h } from 'preact';
import htm from 'htm';
import { useState } from 'preact/hooks';
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
// Words for people: a colonist, its plural, its resource.
const NAME = {
  scientist: ['scientist', 'scientists', 'Technology'],
  mining: ['mining robot', 'mining robots', 'Raw Materials'],
  merchant: ['merchant', 'merchants', 'Money'],
  settler: ['settler', 'settlers', 'People'],
};
const one = (k) => (NAME[k] ? NAME[k][0] : k);
const many = (k) => (NAME[k] ? NAME[k][1] : k);
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const at = (p) => `(${p.x}, ${p.y})`;
const key = (x, y) => `${x},${y}`;


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

/** Every move can be made on this board; the page keeps its move list folded away. */
export const playsOnTheBoard = true;

export function render(view, ctx) {
  // The play page passes play(): the seat gets its order panel (buttons only while it
  // owes a decision). Replays and watchers get the drawing alone, as before.
  if (ctx && ctx.play && view && view.seat != null && !view.outcome) {
    return html`<${Playable} key=${ctx.step} view=${view} ctx=${ctx} />`;
  }
  return draw(view, ctx, null);
}

// ---------------------------------------------------------------------------------
// Playing on the board

/** The legal actions sorted by what they do (every entry is exact server JSON). */
function sortMoves(moves) {
  const o = {
    pass: null, colonize: new Map(), place: new Map(), withdraw: new Map(), bomb: new Map(),
    swaps: [], choose: [], commit: [], take: new Map(),
  };
  const into = (map, k) => { if (!map.has(k)) map.set(k, new Map()); return map.get(k); };
  for (const a of moves || []) {
    if (a === 'pass') { o.pass = a; continue; }
    if (!a || typeof a !== 'object') continue;
    if (a.colonize) into(o.colonize, a.colonize.kind).set(key(a.colonize.at.x, a.colonize.at.y), a);
    else if (a.place_leader) into(o.place, a.place_leader.kind).set(key(a.place_leader.at.x, a.place_leader.at.y), a);
    else if (a.withdraw_leader) o.withdraw.set(a.withdraw_leader.kind, a);
    else if (a.bomb) o.bomb.set(key(a.bomb.at.x, a.bomb.at.y), a);
    else if (a.swap) o.swaps.push(a);
    else if (a.choose_conflict) o.choose.push(a);
    else if (a.commit) o.commit.push(a);
    else if (a.take_artifact) o.take.set(key(a.take_artifact.at.x, a.take_artifact.at.y), a);
  }
  o.commit.sort((a, b) => a.commit.count - b.commit.count);
  o.decision = o.choose.length > 0 || o.commit.length > 0 || o.take.size > 0;
  return o;
}

const sameTiles = (t, counts) => KINDS.every((k) => (t[k] || 0) === (counts[k] || 0));

// Styles for the panel and the clickable cells (kept here: this board's own file).
const STYLE = `
.tae-panel { border: 1px solid #d9dbe0; border-radius: 8px; background: #f5f6f8; padding: 0.5rem 0.6rem;
  margin: 0 0 0.5rem; font-size: 0.95rem; }
.tae-panel p { margin: 0.2rem 0; }
.tae-row { display: flex; flex-wrap: wrap; gap: 0.35rem; align-items: center; margin: 0.35rem 0; }
.tae-lab { font-weight: 600; min-width: 4.6em; }
.tae-panel button { padding: 0.3rem 0.6rem; }
.tae-panel button[aria-pressed="true"] { background: #fff3c4; border-color: #000; box-shadow: inset 0 0 0 2px #000; }
.tae-chip { display: inline-block; min-width: 1.7em; padding: 0 0.2em; margin-right: 0.3em; border: 1px solid #555;
  border-radius: 3px; text-align: center; font-size: 0.8em; font-weight: 700; color: #222; }
.tae-pips { letter-spacing: 0.1em; font-size: 1.1em; }
.tae-tile { display: inline-flex; align-items: center; gap: 0.25rem; min-height: 44px; padding: 0 0.45rem;
  border: 1px solid #bbb; border-radius: 6px; background: #fff; cursor: pointer; }
.tae-tile input { width: 1.2em; height: 1.2em; margin: 0; }
.tae-hint { color: #444; }
.tae-win { color: #00513c; font-weight: 600; }
.tae-lose { color: #8a3300; }
.tae-play svg .tae-cell { cursor: pointer; }
.tae-play svg .tae-cell:focus { outline: none; }
.tae-play svg .tae-cell:hover .tae-ring, .tae-play svg .tae-cell:focus .tae-ring { stroke: #000; stroke-width: 1.3; stroke-dasharray: none; }
@media (max-width: 480px) { .tae-panel { font-size: 0.9rem; padding: 0.4rem; } .tae-panel button { padding: 0.25rem 0.4rem; } }
`;

function Playable({ view, ctx }) {
  const [sel, setSel] = useState(null); // {t: 'col'|'lead', kind} | {t: 'bomb'} | {t: 'swap'}
  const [picked, setPicked] = useState([]); // swap: indexes into the hand's tiles
  const choose = (s) => { setSel(s); setPicked([]); };
  const me = view.seat;
  const mine = (view.players || []).find((p, i) => (p.seat != null ? p.seat : i) === me) || {};
  const hand = mine.hand || {};
  const o = sortMoves(ctx.moves);
  const live = Array.isArray(ctx.moves) && ctx.moves.length > 0;
  const play = (a) => { choose(null); ctx.play(a); };

  // What one selection may reach: the cells and any extra action (withdraw).
  const targets = (s) => {
    if (!s) return null;
    if (s.t === 'col') return o.colonize.get(s.kind) || null;
    if (s.t === 'lead') return o.place.get(s.kind) || null;
    if (s.t === 'bomb') return o.bomb;
    return null;
  };
  const selectable = (s) => {
    if (s.t === 'lead') return (targets(s)?.size || 0) > 0 || o.withdraw.has(s.kind);
    if (s.t === 'swap') return o.swaps.length > 0;
    return (targets(s)?.size || 0) > 0;
  };
  const current = sel && !o.decision && selectable(sel) ? sel : null;
  const cellsFor = targets(current);
  const same = (s) => current && s.t === current.t && s.kind === current.kind;
  const toggle = (s) => choose(same(s) ? null : s);

  // Hints for a target cell: what joins, who fights.
  const byPos = new Map((view.cells || []).map((c) => [key(c.x, c.y), c]));
  const name = (i) => (ctx.seats && ctx.seats[i]) || `seat ${i}`;
  const around = (c) => {
    const rs = new Set();
    for (const [dx, dy] of [[0, 1], [0, -1], [1, 0], [-1, 0]]) {
      const n = byPos.get(key(c.x + dx, c.y + dy));
      if (n && n.region != null) rs.add(n.region);
    }
    return rs;
  };
  const leaderIn = (region, kind) => (view.cells || []).find((c) => c.region === region && c.leader &&
    c.leader.kind === kind && !(c.leader.owner === me && current && current.t === 'lead'));
  const hint = (c) => {
    const rs = around(c);
    if (current.t === 'col') {
      if (rs.size >= 2) return ` — unites ${rs.size} regions (leaders of one kind on both sides fight)`;
      if (rs.size === 1) return ' — joins a region';
      return ' — a new region';
    }
    if (current.t === 'lead' && rs.size === 1) {
      const rival = leaderIn([...rs][0], current.kind);
      if (rival) return ` — internal conflict with ${name(rival.leader.owner)}'s ${one(current.kind)} leader`;
    }
    return '';
  };

  // The grid's side of it: what a click on each cell does.
  const cellPlay = {
    on(c) {
      const k = key(c.x, c.y);
      if (o.take.has(k)) {
        const a = o.take.get(k);
        return { mark: 'take', testid: 'board-move', text: `Take the artifact at ${at(c)}`, run: () => play(a) };
      }
      if (cellsFor && cellsFor.has(k)) {
        const a = cellsFor.get(k);
        const text = current.t === 'col' ? `Colonize a ${one(current.kind)} at ${at(c)}${hint(c)}`
          : current.t === 'lead' ? `${(mine.leaders_on_board || []).some(([lk]) => lk === current.kind) ? 'Move' : 'Place'} your ${one(current.kind)} leader to ${at(c)}${hint(c)}`
          : `Destroy the system at ${at(c)}${c.colony ? ` and its ${one(c.colony)} colony` : ''} (uses a weapon ship)`;
        return { mark: current.t, kind: current.kind, testid: 'board-move', text, run: () => play(a) };
      }
      // Your leaders on the grid: pick one to move or withdraw it.
      if (!o.decision && live && c.leader && c.leader.owner === me) {
        const s = { t: 'lead', kind: c.leader.kind };
        if (!selectable(s)) return null;
        const on = same(s);
        return { mark: on ? 'selected' : 'select', testid: 'board-select',
          text: on ? `Your ${one(s.kind)} leader, selected (press again to drop)` : `Select your ${one(s.kind)} leader to move or withdraw it`,
          run: () => toggle(s) };
      }
      return null;
    },
    me,
  };

  const panel = orderPanel({ view, ctx, o, live, mine, hand, current, cellsFor, same, toggle, selectable,
    choose, play, picked, setPicked, name });
  const onKey = (e) => { if (e.key === 'Escape' && current) { e.preventDefault(); choose(null); } };
  return html`<div class="tae-play" onKeyDown=${onKey}>
    <style>${STYLE}</style>
    ${panel}
    ${draw(view, ctx, cellPlay)}
  </div>`;
}

/** The HTML order panel, before the grid (so its buttons come first in the page). */
function orderPanel({ view, ctx, o, live, mine, hand, current, cellsFor, same, toggle, selectable, choose, play,
  picked, setPicked, name }) {
  const me = view.seat;
  const prompt = view.prompt || {};
  const owes = prompt.seat === me && prompt.prompt !== 'over';
  const btn = (testid, text, run, extra = {}) => html`<button type="button" data-testid=${testid}
    title=${extra.title || null} aria-pressed=${extra.pressed == null ? null : String(extra.pressed)}
    onClick=${run}>${extra.body || text}</button>`;
  const off = (text, why) => html`<button type="button" disabled title=${why}>${text}</button>`;
  const chip = (k) => html`<span class="tae-chip" style=${`background:${KIND[k][0]}`} aria-hidden="true">${ab(k)}</span>`;

  const sections = [];
  const left = prompt.prompt === 'act' ? prompt.actions_left : view.actions_left;
  const pips = (n) => html`<span class="tae-pips" aria-hidden="true">${'●'.repeat(n)}${'○'.repeat(Math.max(0, 2 - n))}</span>`;

  // Whose decision, and the orders counter.
  let status;
  if (!owes) status = html`Waiting for ${name(prompt.seat != null ? prompt.seat : view.active)}…`;
  else if (prompt.prompt === 'act') status = html`<strong>Your turn</strong> · orders left ${pips(left)} ${left} of 2`;
  else status = html`<strong>Your decision</strong>`;
  sections.push(html`<p aria-live="polite">${status}${!owes && view.active === me
    ? html` · your orders left: ${pips(view.actions_left)} ${view.actions_left} of 2` : null}</p>`);

  // The owed conflict or harvest decision: its buttons are the only moves.
  if (live && o.choose.length) {
    sections.push(html`<p>A colony${prompt.join ? ` at ${at(prompt.join)}` : ''} united two regions: choose which conflict is fought first.</p>`);
    sections.push(html`<div class="tae-row">${o.choose.map((a) => {
      const k = a.choose_conflict.kind;
      const w = (prompt.options || []).find((x) => x.kind === k);
      const text = `${cap(one(k))} leaders` + (w ? `: ${name(w.attacker)} attacks ${name(w.defender)}` : '');
      return btn('board-move', text, () => play(a), { body: html`${chip(k)}${text}` });
    })}</div>`);
  } else if (live && o.commit.length) {
    const b = prompt.battle || {};
    const support = b.internal ? 'scientist' : b.kind;
    const attacking = me === b.attacker;
    const held = hand[support] ?? (o.commit.length - 1);
    const other = attacking ? b.defender : b.attacker;
    const myBase = attacking ? b.attacker_base : b.defender_base;
    const theirBase = attacking ? b.defender_base : b.attacker_base;
    const theirs = attacking ? null : theirBase + (b.attacker_commit || 0);
    const otherHand = ((view.players || []).find((p, i) => (p.seat != null ? p.seat : i) === other) || {}).hand_count;
    sections.push(html`<p><strong>${b.internal ? 'Internal' : 'External'} ${one(b.kind)} conflict</strong>:
      you ${attacking ? 'attack' : 'defend against'} ${name(other)}. A tie goes to the defender.</p>`);
    sections.push(html`<p>Your strength: base ${myBase} (${b.internal ? 'scientist colonies next to your leader'
      : `${many(b.kind)} in your region`}) + the ${many(support)} you commit (you hold ${held}).</p>`);
    sections.push(attacking
      ? html`<p>${name(other)}: base ${theirBase}; commits after seeing yours, from a hand of ${otherHand ?? '?'}.</p>`
      : html`<p>${name(other)}: ${theirs} (base ${theirBase} + ${b.attacker_commit || 0} committed). You need ${Math.max(0, theirs - myBase)} to hold.</p>`);
    sections.push(html`<div class="tae-row"><span class="tae-lab">Commit</span>${o.commit.map((a) => {
      const n = a.commit.count, total = myBase + n;
      // A tie goes to the defender: an attack no stronger than the defender's base loses.
      const verdict = attacking ? (total > theirBase ? ` · they need ${total - theirBase}` : ' ✗ loses')
        : total >= theirs ? ' ✓ holds' : ' ✗ loses';
      const text = `Commit ${n} ${n === 1 ? one(support) : many(support)} → strength ${total}${verdict}`;
      return btn('board-move', text, () => play(a), {
        body: html`${n} <span class="tae-hint">(strength ${total})</span><span class=${verdict.includes('✗') ? 'tae-lose' : verdict.includes('✓') ? 'tae-win' : 'tae-hint'}>${verdict}</span>`,
        title: text,
      });
    })}</div>`);
  } else if (live && o.take.size) {
    sections.push(html`<p>Your merchant leader's region holds two or more artifacts: take one (the star cells ringed on the grid).</p>`);
    sections.push(html`<div class="tae-row">${[...o.take.values()].map((a) =>
      btn('board-move', `Take the artifact at ${at(a.take_artifact.at)}`, () => play(a)))}</div>`);
  }

  // Your turn's orders (shown, without buttons, while you wait).
  if (!o.decision) {
    const acting = live;
    const hasAny = (s) => acting && selectable(s);
    // Hand of colonists.
    sections.push(html`<div class="tae-row" role="group" aria-label="Your hand">
      <span class="tae-lab">Hand</span>
      ${KINDS.map((k) => {
        const n = hand[k] || 0;
        const s = { t: 'col', kind: k };
        const text = `${cap(many(k))} × ${n}`;
        const body = html`${chip(k)}× ${n}`;
        if (!hasAny(s)) return off(body, n ? `${text}: nowhere to colonize now` : `${text}`);
        return btn('board-select', `Colonize a ${one(k)} (${n} in hand)`, () => toggle(s),
          { pressed: !!same(s), body, title: `Colonize a ${one(k)} (${n} in hand)` });
      })}
    </div>`);
    // Leaders.
    const onBoard = new Map((mine.leaders_on_board || []).map(([k, p]) => [k, p]));
    const owned = KINDS.filter((k) => onBoard.has(k) || (mine.leaders_in_hand || []).includes(k));
    sections.push(html`<div class="tae-row" role="group" aria-label="Your leaders">
      <span class="tae-lab">Leaders</span>
      ${owned.map((k) => {
        const p = onBoard.get(k);
        const s = { t: 'lead', kind: k };
        const where = p ? `at ${at(p)}` : 'off board';
        const body = html`${chip(k)}${where}`;
        const text = `${p ? 'Move or withdraw' : 'Place'} your ${one(k)} leader (${where})`;
        if (!hasAny(s)) return off(body, `Your ${one(k)} leader ${where}`);
        return btn('board-select', text, () => toggle(s), { pressed: !!same(s), body, title: text });
      })}
      ${owned.length === 0 && html`<span class="tae-hint">none</span>`}
    </div>`);
    // Weapon ships, swap, end turn.
    const ships = mine.bombers || 0;
    const bombText = `Destroy… (${ships} weapon ship${ships === 1 ? '' : 's'})`;
    const turnLeft = prompt.prompt === 'act' ? prompt.actions_left : 0;
    sections.push(html`<div class="tae-row">
      <span class="tae-lab">Other</span>
      ${hasAny({ t: 'bomb' })
        ? btn('board-select', bombText, () => toggle({ t: 'bomb' }),
          { pressed: !!same({ t: 'bomb' }), title: 'Destroy a system with a weapon ship: pick the cell next' })
        : off(bombText, ships ? 'nothing to destroy now' : 'no weapon ships left')}
      ${hasAny({ t: 'swap' })
        ? btn('board-select', 'Swap…', () => toggle({ t: 'swap' }),
          { pressed: !!same({ t: 'swap' }), title: 'Swap colonists: send some out of the game and draw as many' })
        : off('Swap…', 'not now')}
      ${acting && o.pass
        ? btn('board-pass', 'End turn', () => play(o.pass),
          { title: turnLeft === 2 ? 'End the turn now, skipping both orders' : 'End the turn now, skipping the last order' })
        : off('End turn', 'not now')}
    </div>`);

    // The selection's own controls.
    if (current && current.t === 'swap') {
      const tiles = [];
      for (const k of KINDS) for (let i = 0; i < (hand[k] || 0); i++) tiles.push(k);
      const counts = {};
      for (const i of picked) counts[tiles[i]] = (counts[tiles[i]] || 0) + 1;
      const n = picked.length;
      const action = n > 0 ? o.swaps.find((a) => sameTiles(a.swap.tiles, counts)) : null;
      const flip = (i) => setPicked(picked.includes(i) ? picked.filter((j) => j !== i) : [...picked, i]);
      const what = KINDS.filter((k) => counts[k]).map((k) => `${counts[k]} ${counts[k] === 1 ? one(k) : many(k)}`).join(', ');
      sections.push(html`<p>Swap: tick the colonists to send out of the game; you draw as many. Uses an order.</p>`);
      sections.push(html`<div class="tae-row">
        ${action ? btn('board-move', `Swap ${what}`, () => play(action), { title: `Swap ${what}` })
          : off(n ? 'Swap' : 'Swap (tick a colonist first)', 'tick at least one colonist')}
        <button type="button" onClick=${() => choose(null)}>Cancel</button>
      </div>`);
      sections.push(html`<div class="tae-row" role="group" aria-label="Colonists to swap">
        ${tiles.map((k, i) => {
          const on = picked.includes(i);
          return html`<label class="tae-tile" key=${i}>
            <input type="checkbox" checked=${on} data-testid=${on ? null : 'board-move'}
              aria-label=${`${one(k)} ${i + 1}`} onChange=${() => flip(i)} />${chip(k)}</label>`;
        })}
      </div>`);
    } else if (current) {
      const n = cellsFor ? cellsFor.size : 0;
      const where = `${n} highlighted cell${n === 1 ? '' : 's'}`;
      let text;
      if (current.t === 'col') text = `Colonize a ${one(current.kind)}: click one of the ${where} (marked ${ab(current.kind)}).`;
      else if (current.t === 'bomb') text = `Destroy: click one of the ${where} (marked ✕). The cell is destroyed for good.`;
      else text = n ? `Your ${one(current.kind)} leader: click one of the ${where} (dashed).` : `Your ${one(current.kind)} leader has nowhere to go.`;
      sections.push(html`<p aria-live="polite">${text} <span class="tae-hint">Esc cancels.</span></p>`);
      const w = current.t === 'lead' && o.withdraw.get(current.kind);
      sections.push(html`<div class="tae-row">
        ${w && btn('board-move', `Withdraw your ${one(current.kind)} leader to your hand`, () => play(w))}
        <button type="button" onClick=${() => choose(null)}>Cancel</button>
      </div>`);
    }
    // Private numbers at a glance.
    const r = mine.resources;
    if (r) {
      sections.push(html`<p class="tae-hint">${`Your resources: ${RES.map(([k, l]) => `${l} ${r[k]}`).join(' · ')}` +
        ` · artifacts ${mine.artifacts || 0}`}</p>`);
    }
  }

  return html`<div class="tae-panel" role="group" aria-label="Your orders">${sections}</div>`;
}

// ---------------------------------------------------------------------------------
// The drawing

// What a playable cell shows on top: where a colony / leader would go, a bomb, a harvest.
function cellMark(does, x, y, me) {
  const ring = (dash, colour, w = 0.7) => html`<rect class="tae-ring" x=${x + 0.55} y=${y + 0.55} width=${C - 1.1}
    height=${C - 1.1} rx="1" fill="none" stroke=${colour} stroke-width=${w} stroke-dasharray=${dash} />`;
  switch (does.mark) {
    case 'col':
      return html`<g pointer-events="none">
        <rect x=${x + 1.6} y=${y + 1.6} width=${C - 3.2} height=${C - 3.2} rx="1" fill=${KIND[does.kind][0]}
          fill-opacity="0.75" stroke="#0072B2" stroke-width="0.3" stroke-dasharray="0.8 0.6" />
        <text x=${x + C / 2} y=${y + C * 0.64} font-size="3.2" text-anchor="middle" fill="#0b3d66" font-family=${FONT}>+${ab(does.kind)}</text>
        ${ring('none', 'none')}
      </g>`;
    case 'lead':
      return html`<g pointer-events="none">
        <g opacity="0.5">${seatMark(me, x + C / 2, y + C / 2, C * 0.3, ab(does.kind))}</g>
        ${ring('1.4 0.8', '#0072B2')}
      </g>`;
    case 'bomb':
      return html`<g pointer-events="none">
        <path d=${`M${x + 2.6} ${y + 2.6}L${x + C - 2.6} ${y + C - 2.6}M${x + C - 2.6} ${y + 2.6}L${x + 2.6} ${y + C - 2.6}`}
          stroke="#D55E00" stroke-width="0.9" stroke-linecap="round" />
        ${ring('0.9 0.9', '#D55E00')}
      </g>`;
    case 'take':
      return html`<g pointer-events="none">
        <rect x=${x + 0.55} y=${y + 0.55} width=${C - 1.1} height=${C - 1.1} rx="1" fill="#FFD23F" fill-opacity="0.35" />
        <text x=${x + 1.4} y=${y + C - 1.3} font-size="2.6" font-weight="bold" fill="#5a4300" font-family=${FONT}>take</text>
        ${ring('none', '#7A5A00', 1.2)}
      </g>`;
    case 'select':
      return html`<g pointer-events="none">${ring('0.5 0.7', '#0072B2', 0.6)}</g>`;
    case 'selected':
      return html`<g pointer-events="none">${ring('none', '#000', 1.1)}</g>`;
    default:
      return null;
  }
}

function draw(view, ctx, play) {
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
    // On the play page a cell may be a button: a target of the selection, an artifact
    // to take, or one of your leaders to select.
    const does = play && play.on(c);
    const body = html`
      <title>${does ? does.text : tip}</title>
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
      ${does && cellMark(does, x, y, play.me)}`;
    if (!does) return html`<g>${body}</g>`;
    return html`<g class="board-move tae-cell" role="button" tabindex="0" aria-label=${does.text}
        data-testid=${does.testid} aria-pressed=${does.mark === 'selected' ? 'true' : does.mark === 'select' ? 'false' : null}
        onClick=${does.run} onKeyDown=${(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); does.run(); } }}>
      ${body}</g>`;
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
      : e.reason === 'all_passed' ? 'every player passed a whole round'
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
    <path d=${edges.join('')} stroke="#1a1a1a" stroke-width="0.9" stroke-linecap="round" fill="none" pointer-events="none" />
    ${rings.map((r) => html`<rect x=${sx(r.x) + 0.4} y=${sy(r.y) + 0.4} width=${C - 0.8} height=${C - 0.8} fill="none"
      stroke=${r.colour} stroke-width="0.9" stroke-dasharray="1.6 0.9" pointer-events="none"><title>${r.label}</title></rect>`)}
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

/** The move list's wording for an action (the page falls back to a generic one). */
export function label(a) {
  if (a === 'pass') return 'Pass (end the turn; at a prompt, its default)';
  if (!a || typeof a !== 'object') return null;
  if (a.place_leader) return `Leader: ${one(a.place_leader.kind)} to ${at(a.place_leader.at)}`;
  if (a.withdraw_leader) return `Withdraw the ${one(a.withdraw_leader.kind)} leader`;
  if (a.colonize) return `Colonize a ${one(a.colonize.kind)} at ${at(a.colonize.at)}`;
  if (a.bomb) return `Destroy ${at(a.bomb.at)}`;
  if (a.swap) {
    const t = a.swap.tiles || {};
    return 'Swap ' + KINDS.filter((k) => t[k]).map((k) => `${t[k]} ${t[k] === 1 ? one(k) : many(k)}`).join(', ');
  }
  if (a.choose_conflict) return `Fight the ${one(a.choose_conflict.kind)} conflict first`;
  if (a.commit) return `Commit ${a.commit.count}`;
  if (a.take_artifact) return `Take the artifact at ${at(a.take_artifact.at)}`;
  return null;
}
