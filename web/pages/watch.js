// Watching a match live (#/watch/<id>): spectate over the socket and draw each
// spectator view as it comes. Guests may watch; the replay covers ended matches.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { useApi } from '../lib/api.js';
import { Board } from '../lib/board.js';
import { useConnection } from '../lib/connection.js';
import { spectate, unspectate, useMatch } from '../lib/live.js';
import { Events, Players, Result, StandIns, seatToMove } from '../lib/matchbits.js';
import { ErrorBox, Loading, rulesetNames, useTitle } from '../lib/ui.js';

export function Watch({ id }) {
  const conn = useConnection();
  const state = useMatch(id);
  const rulesets = useApi('/api/rulesets');
  const [error, setError] = useState(null);
  const seated = state?.seat != null; // your own match: its page shows your seat's view
  useTitle(`Watch match #${id}`);

  useEffect(() => {
    if (seated) return undefined;
    let current = true;
    spectate(id).catch((e) => current && setError(e));
    return () => { current = false; unspectate(id); };
  }, [id, seated]);

  const game = state?.ruleset ? rulesetNames(rulesets.data)[state.ruleset] || state.ruleset : null;
  const heading = html`<h1>${game || 'Match'} <span class="muted">· watching #${id}</span></h1>`;
  const replay = html`<a href=${`#/replay/${encodeURIComponent(id)}`}>replay</a>`;

  if (seated) {
    return html`${heading}<p>You play in this match: <a class="button" href=${`#/match/${id}`}>Go to your seat</a></p>`;
  }
  if (error && !state?.outcome) {
    const over = error.code === 'no_such_match';
    return html`${heading}
      <${ErrorBox} error=${error}>${over ? 'This match is not being played now.' : 'Could not watch this match.'}<//>
      <p>Its ${replay} shows the moves played.</p>`;
  }
  if (!state || state.view == null) {
    return html`${heading}<${Loading} what=${conn.status === 'open' ? 'Joining as a spectator' : 'Connecting'} />`;
  }

  const next = seatToMove(state.view);
  return html`${heading}
    <${Players} seats=${state.seats} />
    <p class="watch-status">
      <span class="counter" data-testid="step-counter">step ${state.step}</span>
      ${state.outcome || state.aborted
        ? html` · <span>${state.aborted ? 'stopped' : 'over'}</span>`
        : html` · <span class="badge live">live</span>${next != null && state.seats[next] ? html` · ${state.seats[next]} to move` : ''}`}
      ${conn.status !== 'open' && html` · <span class="muted">reconnecting…</span>`}
    </p>
    <div class="board" data-testid="board" id="board" aria-live="off">
      <${Board} ruleset=${state.ruleset} view=${state.view} seats=${state.seats} step=${state.step} />
    </div>
    ${state.ejected.length > 0 && !state.outcome && state.ejected.map((e) => html`<p class="muted">
      ${state.seats[e.seat] ?? `seat ${e.seat}`} left the game: ${e.reason}.</p>`)}
    ${!state.outcome && html`<${StandIns} standIns=${state.standIns} seats=${state.seats} />`}
    ${state.outcome && html`<${Result} id=${id} outcome=${state.outcome} headline=${state.headline} seats=${state.seats} />`}
    ${state.aborted && html`<p role="alert" data-testid="aborted">The match was stopped without a result: ${state.aborted}.</p>`}
    ${!state.outcome && html`<p class="muted">The ${replay} shows the steps so far.</p>`}
    <${Events} events=${state.events} />`;
}
