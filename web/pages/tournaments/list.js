// #/tournaments: every tournament (open and running first, then the finished ones),
// and the way to create one for a signed-in person.
import { useState } from 'preact/hooks';
import { html } from '../../lib/html.js';
import { useApi } from '../../lib/api.js';
import { useConnection } from '../../lib/connection.js';
import { ErrorBox, Loading, When, rulesetNames, useTitle } from '../../lib/ui.js';
import { accountHref } from '../account.js';
import { NewTournament } from './create.js';
import {
  LIST_EVERY_MS, StatusBadge, TournamentCard, formatText, isOver, tournamentHref,
} from './shared.js';

/** #/tournaments: the list, and the form for signed-in people. */
export function Tournaments({ query }) {
  useTitle('Tournaments');
  const conn = useConnection();
  const list = useApi('/api/tournaments', { every: LIST_EVERY_MS });
  const rulesets = useApi('/api/rulesets');
  const [creating, setCreating] = useState(query?.get('create') === '1');
  const names = rulesetNames(rulesets.data);
  const all = list.data?.tournaments || [];
  const going = all.filter((t) => !isOver(t.status));
  const done = all.filter((t) => isOver(t.status));
  return html`<h1>Tournaments</h1>
    <p class="muted">Swiss, arena and round-robin tournaments of any game. Every game is an ordinary match:
      watch it live, replay it later.</p>
    ${list.error && html`<${ErrorBox} error=${list.error} retry=${list.reload}>Could not load the tournaments.<//>`}
    ${!list.data && !list.error && html`<${Loading} what="Loading tournaments" />`}
    <section aria-labelledby="going-h" data-testid="tournaments-going">
      <h2 id="going-h">Open and running</h2>
      ${list.data && going.length === 0 && html`<p class="note">No tournament is open or running.</p>`}
      ${going.length > 0 && html`<div class="cards">
        ${going.map((t) => html`<${TournamentCard} key=${t.id} t=${t} names=${names} />`)}
      </div>`}
    </section>
    <section aria-labelledby="create-h">
      <h2 id="create-h">Create a tournament</h2>
      ${!conn.name && html`<p><a class="button" href=${accountHref()} data-testid="login-to-create">Log in to create a tournament</a></p>`}
      ${conn.name && !creating && html`<p><button type="button" data-testid="open-create" onClick=${() => setCreating(true)}>
        Create a tournament…</button></p>`}
      ${conn.name && creating && !rulesets.data && html`<${Loading} what="Loading games" />`}
      ${conn.name && creating && rulesets.data && html`<${NewTournament} rulesets=${rulesets.data} />`}
    </section>
    ${done.length > 0 && html`<section aria-labelledby="done-h" data-testid="tournaments-done">
      <h2 id="done-h">Finished</h2>
      <div class="table-wrap"><table class="tournament-list">
        <thead><tr><th scope="col">Tournament</th><th scope="col">Game</th><th scope="col">Format</th>
          <th scope="col" class="num">Entrants</th><th scope="col">Ended</th></tr></thead>
        <tbody>${done.map((t) => html`<tr key=${t.id}>
          <td><a href=${tournamentHref(t.id)}>${t.name}</a>${t.status === 'cancelled' && html` <${StatusBadge} status=${t.status} />`}</td>
          <td>${names[t.ruleset] || t.ruleset}</td>
          <td>${formatText(t)}</td>
          <td class="num">${t.entrants}</td>
          <td><${When} at=${t.finished_at} /></td>
        </tr>`)}</tbody>
      </table></div>
    </section>`}`;
}
