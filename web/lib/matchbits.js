// Pieces the play and watch pages share: the players line, whose turn it is, the result
// at the end, and the latest events.
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.js';

/** "ann (you) vs random#2": seat order, with the viewer's seat marked. */
export function Players({ seats, you = null }) {
  return html`<p class="players" data-testid="players">${seats.map((name, i) => html`${i > 0 ? ' vs ' : ''}<span
    class=${i === you ? 'you' : null}>${name}${i === you ? ' (you)' : ''}</span>`)}</p>`;
}

/** The seat to move, when the view says (each game names it its own way). */
export function seatToMove(view) {
  if (!view || typeof view !== 'object') return null;
  for (const key of ['next', 'to_act', 'active']) {
    if (typeof view[key] === 'number') return view[key];
  }
  return null;
}

const pad = (n) => String(n).padStart(2, '0');
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return s >= 3600 ? `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}` : `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

/** Re-render every second while `active`, for clocks. */
export function useNow(active) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!active) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/** Headline, then every seat's rank and score, best first; a link to the replay. */
export function Result({ id, outcome, headline, seats, you = null }) {
  const order = seats.map((_, seat) => seat)
    .sort((a, b) => (outcome.ranks?.[a] ?? 99) - (outcome.ranks?.[b] ?? 99) || a - b);
  return html`<section class="outcome" data-testid="result" aria-labelledby="result-h">
    <h2 id="result-h">Result</h2>
    ${headline && html`<p class="summary" data-testid="headline">${headline}</p>`}
    ${outcome.summary && outcome.summary !== headline && html`<p>${outcome.summary}</p>`}
    <div class="table-wrap"><table>
      <thead><tr><th scope="col" class="num">Rank</th><th scope="col">Player</th>
        <th scope="col" class="num">Score</th></tr></thead>
      <tbody>${order.map((seat) => html`<tr key=${seat} class=${seat === you ? 'you' : null}>
        <td class="num">${outcome.ranks?.[seat] ?? '–'}</td>
        <td>${seats[seat] ?? `seat ${seat}`}${seat === you ? ' (you)' : ''}
          ${outcome.ejected?.[seat] && html` <span class="muted">(ejected: ${outcome.ejected[seat]})</span>`}</td>
        <td class="num">${outcome.scores?.[seat] ?? '–'}</td>
      </tr>`)}</tbody>
    </table></div>
    <p><a class="button" data-testid="replay-link" href=${`#/replay/${encodeURIComponent(id)}`}>Watch the replay</a></p>
  </section>`;
}

/** The latest events, newest last, as compact JSON: what just happened and why. */
export function Events({ events }) {
  if (!events || events.length === 0) return null;
  return html`<details class="events">
    <summary>Latest events (${events.length})</summary>
    <ol>${events.map((e, i) => html`<li key=${i}><code>${JSON.stringify(e)}</code></li>`)}</ol>
  </details>`;
}

/** Seats a house bot plays because their players went silent (not `you`: your page
 * says it with a button to take the seat back). */
export function StandIns({ standIns, seats, you = null }) {
  const others = Object.entries(standIns || {}).filter(([seat]) => Number(seat) !== you);
  return others.map(([seat, s]) => html`<p class="muted" data-testid="stand-in">
    ${seats[seat] ?? `seat ${seat}`} went silent: a house bot (${s.bot}) plays for them since step ${s.step}.</p>`);
}
