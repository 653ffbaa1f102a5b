// Leaderboards: the list of games, and one game's ranking.
import { html } from '../lib/html.js';
import { useApi } from '../lib/api.js';
import { ErrorBox, Loading, playerHref, rulesetNames, useTitle } from '../lib/ui.js';

/** #/leaderboards: one link per game. */
export function Leaderboards() {
  useTitle('Leaderboards');
  const { data, error, reload } = useApi('/api/rulesets');
  return html`<h1>Leaderboards</h1>
    ${error && html`<${ErrorBox} error=${error} retry=${reload}>Could not load the games.<//>`}
    ${!data && !error && html`<${Loading} />`}
    ${data && html`<ul class="plain-list">
      ${data.map((r) => html`<li key=${r.id}>
        <a href=${`#/leaderboard/${encodeURIComponent(r.id)}`}>${r.name}</a>
        <span class="muted"> (${r.id})</span></li>`)}
    </ul>`}`;
}

/** #/leaderboard/<id>: position, player, rating, games. */
export function Leaderboard({ id }) {
  const board = useApi(`/api/leaderboard/${encodeURIComponent(id)}`);
  const rulesets = useApi('/api/rulesets');
  const name = rulesetNames(rulesets.data)[id] || id;
  useTitle(`${name} leaderboard`);

  let body;
  if (board.error) {
    body = html`<${ErrorBox} error=${board.error} retry=${board.reload}>Could not load the leaderboard.<//>`;
  } else if (!board.data) {
    body = html`<${Loading} what="Loading the leaderboard" />`;
  } else if (board.data.entries.length === 0) {
    body = html`<p class="note">No rated games yet.</p>`;
  } else {
    body = html`<div class="table-wrap"><table class="leaderboard">
      <thead><tr><th scope="col" class="num">#</th><th scope="col">Player</th>
        <th scope="col" class="num">Rating</th><th scope="col" class="num">Games</th></tr></thead>
      <tbody>${board.data.entries.map((e) => html`<tr key=${e.account_id}>
        <td class="num">${e.position}</td>
        <td><a href=${playerHref(e.name)}>${e.name}</a></td>
        <td class="num" title=${`μ ${e.mu.toFixed(2)}, σ ${e.sigma.toFixed(2)}`}>${e.display}</td>
        <td class="num">${e.games}</td>
      </tr>`)}</tbody>
    </table></div>`;
  }
  return html`<h1>${name} leaderboard</h1>
    <p class="links"><a href=${`#/rules/${encodeURIComponent(id)}`}>Rules</a> · <a href="#/leaderboards">All leaderboards</a></p>
    ${body}`;
}
