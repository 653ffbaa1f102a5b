// Secret Nim's board for the browser: the heaps as rows of stones, each seat's card,
// who moves next and who won. Served as /boards/nim.js; the page calls
// render(view, {seats, seat, step, moves, play}) and mounts the returned Preact vnode.
// When the seat is to answer, `moves` holds its legal actions and `play(action)` sends
// one: a stone is then a button that takes it and the stones after it (by mouse, or by
// Tab and Enter).
//
// view: {heaps: [n...], cards: ["hidden"|"plain"|"double"|"spent"...],
//        ejected: [null|reason...], next: seat, winner: seat|null}
import { h } from 'preact';
import htm from 'htm';
import { seatMark } from '/web/lib/seats.js';

const html = htm.bind(h);

// Seats are numbered from 0, as the server's summaries do; each has the shared
// colour, shape and number (web/lib/seats.js), so nothing relies on colour alone.
const CARD_TEXT = {
  hidden: 'card hidden',
  plain: 'plain card',
  double: 'double card',
  spent: 'double spent',
};

const W = 440;
const PER_ROW = 14; // stones per line before a heap wraps
const STONE = 24; // spacing between stones
const ROW_H = 30;
const SEAT_H = 34;

/** The card as a small labelled rectangle: "?" hidden, "×1" plain, "×2" double, struck when spent. */
function card(state, x, y) {
  const label = { hidden: '?', plain: '×1', double: '×2', spent: '×2' }[state] ?? '?';
  const fill = state === 'hidden' ? '#eee' : state === 'spent' ? '#ddd' : '#fff';
  return html`<g>
    <rect x=${x} y=${y - 12} width="26" height="24" rx="3" fill=${fill} stroke="#444"
      stroke-dasharray=${state === 'hidden' ? '3 2' : null} />
    <text x=${x + 13} y=${y + 5} text-anchor="middle" font-size="13" font-weight="bold"
      fill=${state === 'spent' ? '#777' : '#111'}>${label}</text>
    ${state === 'spent' && html`<line x1=${x + 2} y1=${y + 10} x2=${x + 24} y2=${y - 10} stroke="#333" stroke-width="1.5" />`}
  </g>`;
}

function shorten(name, max = 16) {
  return name.length > max ? `${name.slice(0, max - 1)}…` : name;
}

/** Every move can be made on this board; the page keeps its move list folded away. */
export const playsOnTheBoard = true;

export function render(view, ctx = {}) {
  // The seat's legal single takes (`ctx.moves`, when it is to answer), by "heap:count";
  // doubles stay in the move list.
  const takes = new Map((ctx.moves ?? []).filter((a) => a && a.take)
    .map((a) => [`${a.take.heap}:${a.take.count}`, a]));
  const clickable = (action, text, shape) => html`<g class="board-move" role="button" tabindex="0"
      data-testid="board-move" aria-label=${text} onClick=${() => ctx.play?.(action)}
      onKeyDown=${(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); ctx.play?.(action); } }}>
    <title>${text}</title>${shape}</g>`;
  const heaps = view.heaps ?? [];
  const cards = view.cards ?? [];
  const ejected = view.ejected ?? [];
  const seatCount = Math.max(cards.length, ejected.length, ctx.seats?.length ?? 0);
  const nameOf = (s) => ctx.seats?.[s] ?? `seat ${s}`;
  const over = view.winner != null;

  // Heaps first, each on as many lines as its stones need.
  let y = 44;
  const heapRows = heaps.map((count, k) => {
    const lines = Math.max(1, Math.ceil(count / PER_ROW));
    const top = y;
    y += lines * ROW_H + 6;
    const stones = [];
    for (let i = 0; i < count; i++) {
      const cx = 118 + (i % PER_ROW) * STONE;
      const cy = top + Math.floor(i / PER_ROW) * ROW_H;
      // Clicking a stone takes it and every stone after it, when that is a legal take.
      const take = takes.get(`${k}:${count - i}`);
      stones.push(take
        ? clickable(take, `Take ${count - i} from heap ${k + 1}`,
          html`<circle class="takes" cx=${cx} cy=${cy} r="10" stroke-width="1.2" />`)
        : html`<circle cx=${cx} cy=${cy} r="10" fill="#8c7b6b" stroke="#3d3328" stroke-width="1.2" />`);
    }
    return html`<g class="heap">
      <text x="10" y=${top + 5} font-size="14" font-weight="bold">Heap ${k + 1}</text>
      <text x="104" y=${top + 5} font-size="14" text-anchor="end">${count}</text>
      ${count === 0 ? html`<text x="118" y=${top + 5} font-size="13" fill="#666" font-style="italic">empty</text>` : stones}
    </g>`;
  });

  // Then one line per seat: marker, name, card, and what is going on with it.
  y += 16;
  const seatsTop = y;
  const seatRows = [];
  for (let s = 0; s < seatCount; s++) {
    const cy = seatsTop + 14 + s * SEAT_H;
    const status = [];
    if (ejected[s]) status.push(`ejected`);
    if (over && view.winner === s) status.push('★ winner');
    else if (!over && view.next === s && !ejected[s]) status.push('▶ to move');
    seatRows.push(html`<g class="seat">
      ${!over && view.next === s && html`<rect x="2" y=${cy - 15} width=${W - 4} height="30" rx="4"
        fill="#fff4d6" stroke="#E69F00" />`}
      ${over && view.winner === s && html`<rect x="2" y=${cy - 15} width=${W - 4} height="30" rx="4"
        fill="#e3f4ec" stroke="#009E73" />`}
      ${seatMark(s, 18, cy, 9)}
      <text x="34" y=${cy + 5} font-size="14" text-decoration=${ejected[s] ? 'line-through' : null}>
        seat ${s} · ${shorten(nameOf(s), 13)}</text>
      ${card(cards[s] ?? 'hidden', 212, cy)}
      <text x="244" y=${cy + 5} font-size="12" fill="#444">${CARD_TEXT[cards[s]] ?? cards[s] ?? ''}</text>
      <text x=${W - 10} y=${cy + 5} font-size="13" font-weight="bold" text-anchor="end">${status.join(' · ')}</text>
    </g>`);
  }
  const height = seatsTop + seatCount * SEAT_H + 8;

  const headline = over
    ? `${nameOf(view.winner)} won`
    : `${nameOf(view.next)} to move`;
  const stepText = ctx.step != null ? `Step ${ctx.step}: ` : '';
  const title = `Secret Nim. ${stepText}heaps ${heaps.join(', ') || 'none'}; ${headline}.`;
  const desc = Array.from({ length: seatCount }, (_, s) =>
    `Seat ${s} ${nameOf(s)}: ${CARD_TEXT[cards[s]] ?? 'card unknown'}${ejected[s] ? `, ejected (${ejected[s]})` : ''}.`).join(' ');

  return html`<svg class="board-svg nim" viewBox="0 0 ${W} ${height}" role="img"
      xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif" style="max-width: 640px; width: 100%;">
    <title>${title}</title>
    <desc>${desc}</desc>
    <text x="10" y="20" font-size="15" font-weight="bold">${stepText}${headline}</text>
    ${heapRows}
    <line x1="6" x2=${W - 6} y1=${seatsTop - 8} y2=${seatsTop - 8} stroke="#ccc" />
    ${seatRows}
  </svg>`;
}

// Heaps are numbered from 1 on the board, from 0 in the JSON.
const take = (t) => `${t.count} from heap ${t.heap + 1}`;

/** The move list's wording for an action (the page falls back to a generic one). */
export function label(a) {
  if (a.take) return `Take ${take(a.take)}`;
  if (Array.isArray(a.double)) return `Double: take ${a.double.map(take).join(' and ')}`;
  return null;
}
