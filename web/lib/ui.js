// Small pieces shared by the pages: loading and error notes, names, match lists.
import { useEffect } from 'preact/hooks';
import { html } from './html.js';

/** Set the tab title while a page is shown. */
export function useTitle(title) {
  useEffect(() => {
    document.title = title ? `${title} · Arbiter` : 'Arbiter';
  }, [title]);
}

export function Loading({ what = 'Loading' }) {
  return html`<p class="note" role="status">${what}…</p>`;
}

/** An error shown on the page (role=alert so screen readers announce it). */
export function ErrorBox({ error, retry, children }) {
  return html`<div class="error" role="alert">
    <p>${children || 'Something went wrong.'}</p>
    <p class="detail">${error ? error.message : ''}</p>
    ${retry && html`<button type="button" onClick=${retry}>Try again</button>`}
  </div>`;
}

/** The name shown for a seat: its account, else its bot, else its number. */
export function seatName(seat) {
  if (seat.name) return seat.name;
  if (seat.bot) return `bot ${seat.bot}`;
  return `seat ${seat.seat}`;
}

export const playerHref = (name) => `#/player/${encodeURIComponent(name)}`;

/** A seat's name, linked to the player page when it belongs to an account. */
export function SeatName({ seat }) {
  const name = seatName(seat);
  if (seat.account_id == null || !seat.name) return html`<span>${name}</span>`;
  return html`<a href=${playerHref(seat.name)}>${name}</a>`;
}

/** "3 min ago" for recent times, the date beyond a week; the exact time as a tooltip. */
export function When({ at }) {
  if (!at) return null;
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return html`<span>${at}</span>`;
  const seconds = (Date.now() - date.getTime()) / 1000;
  let text;
  if (seconds < 60) text = 'just now';
  else if (seconds < 3600) text = `${Math.floor(seconds / 60)} min ago`;
  else if (seconds < 86400) text = `${Math.floor(seconds / 3600)} h ago`;
  else if (seconds < 7 * 86400) text = `${Math.floor(seconds / 86400)} d ago`;
  else text = date.toLocaleDateString();
  return html`<time datetime=${at} title=${date.toLocaleString()}>${text}</time>`;
}

const RESULT_LABEL = { win: 'won', loss: 'lost', draw: 'draw' };

/** One seat in a match line: name, then result and score once known. */
function SeatResult({ seat }) {
  const bits = [];
  if (seat.result) bits.push(RESULT_LABEL[seat.result] || seat.result);
  if (seat.score != null) bits.push(`${seat.score}`);
  if (seat.ejected) bits.push('ejected');
  return html`<li class=${`seat result-${seat.result || 'none'}`}>
    <${SeatName} seat=${seat} />
    ${bits.length > 0 && html` <span class="muted">(${bits.join(', ')})</span>`}
  </li>`;
}

/**
 * Matches as a list of rows. `link` picks the action: "replay" for ended matches,
 * "watch" for running ones.
 */
export function MatchList({ matches, names = {}, link = 'replay', empty = 'No matches.' }) {
  if (!matches || matches.length === 0) return html`<p class="note">${empty}</p>`;
  return html`<ul class="matches">
    ${matches.map((m) => html`<li class="match" key=${m.id}>
      <div class="match-head">
        <span class="match-game">${names[m.ruleset] || m.ruleset}</span>
        <span class="muted"> #${m.id}</span>
        ${m.status !== 'finished' && m.status !== 'running' && html` <span class="badge">${m.status}</span>`}
      </div>
      <ul class="seats">${m.seats.map((s) => html`<${SeatResult} key=${s.seat} seat=${s} />`)}</ul>
      <div class="match-foot">
        ${m.summary && html`<span class="summary">${m.summary}</span>`}
        <span class="muted">${m.moves} moves</span>
        <${When} at=${m.finished_at || m.created_at} />
        ${link === 'watch'
          ? html`<a class="button" href=${`#/watch/${m.id}`}>Watch</a>`
          : html`<a class="button" href=${`#/replay/${m.id}`}>Replay</a>`}
      </div>
    </li>`)}
  </ul>`;
}

/** id → display name, from /api/rulesets (empty until it loads). */
export function rulesetNames(rulesets) {
  const names = {};
  for (const r of rulesets || []) names[r.id] = r.name;
  return names;
}
