// The lobby: every game (with a match against a house bot a click away, and its rated
// queue), the open tables, the open and running tournaments, the matches being played
// now, and the latest finished ones.
import { useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { useApi } from '../lib/api.js';
import { connectionState, whenReady } from '../lib/connection.js';
import { playBot } from '../lib/live.js';
import { ErrorBox, Loading, MatchList, rulesetNames, useTitle } from '../lib/ui.js';
import { accountHref } from './account.js';
import { QueueButton, Tables } from './tables.js';
import { TournamentsBox } from './tournaments/lobby.js';

const LIVE_EVERY_MS = 4000;
const RECENT_LIMIT = 20;

function seatsText([min, max]) {
  return min === max ? `${min} players` : `${min}–${max} players`;
}

/** Pick a bot, press Play: a table with that bot, started, and off to the match page. */
function PlayBot({ ruleset }) {
  const bots = ruleset.bots || [];
  const [bot, setBot] = useState(bots.includes('random') ? 'random' : bots[0]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  if (bots.length === 0) return null;
  const play = async () => {
    setError(null);
    if (!connectionState().name) {
      // Guests sign in first and come back to #/play, which starts this very match.
      location.hash = accountHref(`/play/${encodeURIComponent(ruleset.id)}/${encodeURIComponent(bot)}`);
      return;
    }
    setBusy(true);
    try {
      await whenReady();
      const started = await playBot(ruleset.id, bot);
      location.hash = `#/match/${started.match}`;
    } catch (e) {
      setError(e.message);
      setBusy(false);
    }
  };
  const selectId = `bot-${ruleset.id}`;
  return html`<div class="play-bot" data-testid=${`play-${ruleset.id}`}>
    <label for=${selectId}>Play vs bot</label>
    <select id=${selectId} data-testid="bot" value=${bot} onChange=${(e) => setBot(e.currentTarget.value)}>
      ${bots.map((b) => html`<option key=${b} value=${b}>${b}</option>`)}
    </select>
    <button type="button" class="primary" data-testid="play-now" onClick=${play} disabled=${busy}>
      ${busy ? 'Starting…' : 'Play now'}</button>
    ${error && html`<p class="form-error" role="alert">${error}</p>`}
  </div>`;
}

function RulesetCard({ ruleset }) {
  const id = encodeURIComponent(ruleset.id);
  return html`<article class="card">
    <h3>${ruleset.name}</h3>
    <p class="muted"><code>${ruleset.id}</code> · ${seatsText(ruleset.seats)}
      ${ruleset.deadline_ms ? ` · ${ruleset.deadline_ms / 1000} s per move` : ''}</p>
    <${PlayBot} ruleset=${ruleset} />
    <${QueueButton} ruleset=${ruleset} />
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

    ${rulesets.data && html`<${Tables} rulesets=${rulesets.data} />`}

    <${TournamentsBox} rulesets=${rulesets.data} />

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
