// Arbiter's browser front end: a hash router over the pages, so the server only ever
// serves one HTML file. Routes: #/ lobby, #/rules/<id>, #/leaderboards,
// #/leaderboard/<id>, #/player/<name>, #/replay/<match>, #/watch/<match>.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from './lib/html.js';
import { useTitle } from './lib/ui.js';
import { Lobby } from './pages/lobby.js';
import { Rules } from './pages/rules.js';
import { Leaderboard, Leaderboards } from './pages/leaderboard.js';
import { Player } from './pages/player.js';
import { Replay } from './pages/replay.js';

function Watch({ id }) {
  useTitle(`Match #${id}`);
  return html`<h1>Watch match #${id}</h1>
    <p class="note">Watching a match live is coming soon. Until then, its <a
      href=${`#/replay/${encodeURIComponent(id)}`}>replay</a> shows the steps played so far,
      and the whole game once it has ended.</p>`;
}

function NotFound({ path }) {
  useTitle('Not found');
  return html`<h1>Page not found</h1>
    <p>There is no page at <code>#${path}</code>. <a href="#/">Back to the lobby</a>.</p>`;
}

// [pattern, page, nav section]; captured groups are URI-decoded into the page's prop.
const ROUTES = [
  [/^\/$/, () => html`<${Lobby} />`, 'lobby'],
  [/^\/rules\/([^/]+)$/, (id) => html`<${Rules} id=${id} />`, 'lobby'],
  [/^\/leaderboards$/, () => html`<${Leaderboards} />`, 'leaderboards'],
  [/^\/leaderboard\/([^/]+)$/, (id) => html`<${Leaderboard} id=${id} />`, 'leaderboards'],
  [/^\/player\/([^/]+)$/, (name) => html`<${Player} name=${name} />`, null],
  [/^\/replay\/(\d+)$/, (id) => html`<${Replay} id=${id} />`, 'lobby'],
  [/^\/watch\/(\d+)$/, (id) => html`<${Watch} id=${id} />`, 'lobby'],
];

function currentPath() {
  return location.hash.replace(/^#/, '') || '/';
}

function decode(part) {
  try { return decodeURIComponent(part); } catch { return part; }
}

function route(path) {
  for (const [pattern, page, section] of ROUTES) {
    const m = pattern.exec(path);
    if (m) return { page: page(...m.slice(1).map(decode)), section };
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

  // Keyed by path: a new page starts with fresh state.
  return html`<div key=${path} class="page">${page}</div>`;
}

render(html`<${App} />`, document.getElementById('app'));
