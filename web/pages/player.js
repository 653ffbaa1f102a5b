// A player's page: ratings per game, their history as charts, and recent matches.
import { html } from '../lib/html.js';
import { useApi } from '../lib/api.js';
import { RatingChart } from '../lib/chart.js';
import { ErrorBox, Loading, MatchList, When, rulesetNames, useTitle } from '../lib/ui.js';

const SYSTEMS = { weng_lin: 'Weng-Lin', elo: 'Elo' };

export function Player({ name }) {
  useTitle(name);
  const { data, error, reload } = useApi(`/api/players/${encodeURIComponent(name)}`);
  const rulesets = useApi('/api/rulesets');
  const names = rulesetNames(rulesets.data);

  if (error) {
    return html`<h1>${name}</h1>
      <${ErrorBox} error=${error} retry=${error.status === 404 ? null : reload}>
        ${error.status === 404 ? 'There is no player by this name.' : 'Could not load this player.'}
      <//>`;
  }
  if (!data) return html`<h1>${name}</h1><${Loading} what="Loading the player" />`;

  const { account, ratings = [], counts = {}, recent = [], rating_history: history = {} } = data;
  return html`<h1>${account.name}</h1>
    <p class="muted">Playing since <${When} at=${account.created_at} />
      ${counts.finished != null && html` · ${counts.finished} finished
        (${counts.wins ?? 0} won, ${counts.draws ?? 0} drawn, ${counts.losses ?? 0} lost)`}
      ${counts.running ? html` · ${counts.running} running` : ''}</p>

    <section aria-labelledby="ratings-h">
      <h2 id="ratings-h">Ratings</h2>
      ${ratings.length === 0 ? html`<p class="note">No rated games yet.</p>` : html`<div class="table-wrap">
        <table>
          <thead><tr><th scope="col">Game</th><th scope="col" class="num">Rating</th>
            <th scope="col" class="num">Games</th><th scope="col">System</th></tr></thead>
          <tbody>${ratings.map((r) => html`<tr key=${r.ruleset}>
            <td><a href=${`#/leaderboard/${encodeURIComponent(r.ruleset)}`}>${names[r.ruleset] || r.ruleset}</a></td>
            <td class="num">${r.display}</td>
            <td class="num">${r.games}</td>
            <td>${SYSTEMS[r.system] || r.system}</td>
          </tr>`)}</tbody>
        </table></div>`}
    </section>

    <section aria-labelledby="history-h">
      <h2 id="history-h">Rating history</h2>
      ${Object.keys(history).length === 0 && html`<p class="note">No rated games yet.</p>`}
      <div class="charts">
        ${Object.entries(history).map(([ruleset, points]) => html`<figure key=${ruleset} class="chart-box">
          <figcaption>${names[ruleset] || ruleset}</figcaption>
          <${RatingChart} points=${points} label=${`${account.name}'s ${names[ruleset] || ruleset} rating`} />
        </figure>`)}
      </div>
    </section>

    <section aria-labelledby="recent-h">
      <h2 id="recent-h">Recent matches</h2>
      <${MatchList} matches=${recent.filter((m) => m.status !== 'running')} names=${names} empty="No finished match yet." />
      ${recent.some((m) => m.status === 'running') && html`<h3>Playing now</h3>
        <${MatchList} matches=${recent.filter((m) => m.status === 'running')} names=${names} link="watch" />`}
    </section>`;
}
