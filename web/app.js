// Arbiter's browser front end: a hash router over the pages, so the server only ever
// serves one HTML file. Routes: #/ lobby, #/rules/<id>, #/leaderboards,
// #/leaderboard/<id>, #/player/<name>, #/replay/<match>, #/watch/<match>,
// #/match/<match> (your seat), #/play/<ruleset>/<bot>, #/tournaments (list, and the
// form that creates one: ?create=1 opens it), #/tournament/<id>,
// #/tournament/<id>/player/<name>, #/account?next=<path>.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from './lib/html.js';
import { useTitle } from './lib/ui.js';
import { Lobby } from './pages/lobby.js';
import { Rules } from './pages/rules.js';
import { Leaderboard, Leaderboards } from './pages/leaderboard.js';
import { Player } from './pages/player.js';
import { Replay } from './pages/replay.js';
import { Watch } from './pages/watch.js';
import { Match, Play } from './pages/match.js';
import { Account, AccountBar } from './pages/account.js';
import { Tournaments } from './pages/tournaments/list.js';
import { Tournament } from './pages/tournaments/tournament.js';
import { TournamentPlayer } from './pages/tournaments/entrant.js';
import { TournamentCall } from './pages/tournaments/call.js';

function NotFound({ path }) {
  useTitle('Not found');
  return html`<h1>Page not found</h1>
    <p>There is no page at <code>#${path}</code>. <a href="#/">Back to the lobby</a>.</p>`;
}

// [pattern, page, nav section]; captured groups are URI-decoded into the page's props,
// followed by the query (`?a=b` after the path) as URLSearchParams.
const ROUTES = [
  [/^\/$/, () => html`<${Lobby} />`, 'lobby'],
  [/^\/rules\/([^/]+)$/, (id) => html`<${Rules} id=${id} />`, 'lobby'],
  [/^\/leaderboards$/, () => html`<${Leaderboards} />`, 'leaderboards'],
  [/^\/leaderboard\/([^/]+)$/, (id) => html`<${Leaderboard} id=${id} />`, 'leaderboards'],
  [/^\/player\/([^/]+)$/, (name) => html`<${Player} name=${name} />`, null],
  [/^\/replay\/(\d+)$/, (id, query) => html`<${Replay} id=${id} query=${query} />`, 'lobby'],
  [/^\/watch\/(\d+)$/, (id) => html`<${Watch} id=${id} />`, 'lobby'],
  [/^\/match\/(\d+)$/, (id) => html`<${Match} id=${id} />`, 'lobby'],
  [/^\/play\/([^/]+)\/([^/]+)$/, (ruleset, bot) => html`<${Play} ruleset=${ruleset} bot=${bot} />`, 'lobby'],
  [/^\/tournaments$/, (query) => html`<${Tournaments} query=${query} />`, 'tournaments'],
  [/^\/tournament\/(\d+)$/, (id) => html`<${Tournament} id=${id} />`, 'tournaments'],
  [/^\/tournament\/(\d+)\/player\/([^/]+)$/, (id, name) => html`<${TournamentPlayer} id=${id} name=${name} />`, 'tournaments'],
  [/^\/account$/, (query) => html`<${Account} query=${query} />`, 'account'],
];

function currentPath() {
  return location.hash.replace(/^#/, '') || '/';
}

function decode(part) {
  try { return decodeURIComponent(part); } catch { return part; }
}

function route(full) {
  const [path, search = ''] = full.split(/\?(.*)/s);
  const query = new URLSearchParams(search);
  for (const [pattern, page, section] of ROUTES) {
    const m = pattern.exec(path);
    if (m) return { page: page(...m.slice(1).map(decode), query), section };
  }
  return { page: html`<${NotFound} path=${path} />`, section: null };
}

function App() {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const onChange = () => {
      setPath(currentPath());
      window.scrollTo(0, 0);
    };
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);

  const { page, section } = route(path);
  // The nav lives in index.html (it shows before the script runs): mark the current link.
  useEffect(() => {
    for (const a of document.querySelectorAll('[data-nav]')) {
      if (a.dataset.nav === section) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
  }, [section]);

  // Keyed by path: a new page starts with fresh state. Above it, a tournament game of
  // yours that started while this page shows.
  return html`<${TournamentCall} path=${path.split('?')[0]} />
    <div key=${path} class="page">${page}</div>`;
}

render(html`<${App} />`, document.getElementById('app'));
// The header's account corner is its own root: index.html draws the header before this runs.
render(html`<${AccountBar} />`, document.getElementById('account'));
