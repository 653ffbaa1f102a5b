// The lobby: every game, the matches being played now, and the latest finished ones.
import { html } from '../lib/html.js';
import { useApi } from '../lib/api.js';
import { ErrorBox, Loading, MatchList, rulesetNames, useTitle } from '../lib/ui.js';

const LIVE_EVERY_MS = 4000;
const RECENT_LIMIT = 20;

function seatsText([min, max]) {
  return min === max ? `${min} players` : `${min}–${max} players`;
}

function RulesetCard({ ruleset }) {
  const id = encodeURIComponent(ruleset.id);
  return html`<article class="card">
    <h3>${ruleset.name}</h3>
    <p class="muted"><code>${ruleset.id}</code> · ${seatsText(ruleset.seats)}
      ${ruleset.deadline_ms ? ` · ${ruleset.deadline_ms / 1000} s per move` : ''}</p>
    ${ruleset.bots && ruleset.bots.length > 0 && html`<p>Bots: ${ruleset.bots.join(', ')}</p>`}
    <p class="links">
      <a class="button" href=${`#/rules/${id}`}>Rules</a>
      <a class="button" href=${`#/leaderboard/${id}`}>Leaderboard</a>
    </p>
  </article>`;
}

export function Lobby() {
  useTitle('Lobby');
  const rulesets = useApi('/api/rulesets');
  const live = useApi('/api/matches?status=running', { every: LIVE_EVERY_MS });
  const recent = useApi(`/api/matches?status=finished&limit=${RECENT_LIMIT}`, { every: 30000 });
  const names = rulesetNames(rulesets.data);

  return html`<h1 class="visually-hidden">Lobby</h1>
    <section aria-labelledby="games-h">
      <h2 id="games-h">Games</h2>
      ${rulesets.error && html`<${ErrorBox} error=${rulesets.error} retry=${rulesets.reload}>Could not load the games.<//>`}
      ${!rulesets.data && !rulesets.error && html`<${Loading} what="Loading games" />`}
      ${rulesets.data && html`<div class="cards">
        ${rulesets.data.map((r) => html`<${RulesetCard} key=${r.id} ruleset=${r} />`)}
      </div>`}
    </section>

    <section aria-labelledby="live-h">
      <h2 id="live-h">Live matches</h2>
      ${live.error && html`<${ErrorBox} error=${live.error}>Could not load the running matches.<//>`}
      ${!live.data && !live.error && html`<${Loading} what="Loading live matches" />`}
      ${live.data && html`<${MatchList} matches=${live.data.matches} names=${names} link="watch"
        empty="No match is being played right now." />`}
    </section>

    <section aria-labelledby="recent-h">
      <h2 id="recent-h">Recent matches</h2>
      ${recent.error && html`<${ErrorBox} error=${recent.error} retry=${recent.reload}>Could not load the finished matches.<//>`}
      ${!recent.data && !recent.error && html`<${Loading} what="Loading recent matches" />`}
      ${recent.data && html`<${MatchList} matches=${recent.data.matches} names=${names}
        empty="No finished match yet." />`}
    </section>`;
}
