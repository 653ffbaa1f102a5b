// #/tournament/<id>: one tournament live: its settings, joining and withdrawing (and an
// arena's pause), the standings with their tie-breaks, the current round's games and the
// earlier rounds (an arena's games now and latest results), the results to download.
import { useState } from 'preact/hooks';
import { html } from '../../lib/html.js';
import { entryOf, joinTournament, pauseTournament, withdrawTournament } from '../../lib/tournaments.js';
import { Loading, playerHref, useTitle } from '../../lib/ui.js';
import { accountHref } from '../account.js';
import {
  Failed, GameLink, GameStatus, LiveMark, Progress, Standings, StatusBadge, TIEBREAKS, entrantHref,
  entryText, formatText, isOver, points, rulesHref, sameName, seatPoints, useTournamentPage,
} from './shared.js';

const ARENA_RECENT = 8; // an arena's latest results shown; the rest fold away

function seconds(ms) {
  const s = ms / 1000;
  return Number.isInteger(s) ? `${s} s` : `${s.toFixed(1)} s`;
}

/** Settings and progress, as a list of facts. */
function Facts({ t, game }) {
  return html`<dl class="facts" data-testid="tournament-facts">
    <div><dt>Game</dt><dd><a href=${rulesHref(t.ruleset)}>${game}</a></dd></div>
    <div><dt>Format</dt><dd>${formatText(t)}</dd></div>
    <div><dt>${t.status === 'open' ? 'Start' : 'Progress'}</dt><dd data-testid="tournament-progress"><${Progress} t=${t} /></dd></div>
    <div><dt>Entrants</dt><dd data-testid="tournament-entrants">${t.entrants} of ${t.max_entrants}</dd></div>
    <div><dt>Who may enter</dt><dd data-testid="tournament-entry-rule">${entryText(t)}</dd></div>
    <div><dt>Games</dt><dd>${t.rated ? 'rated' : 'casual (not rated)'}</dd></div>
    <div><dt>Clock</dt><dd>${seconds(t.deadline_ms)} a move, ${seconds(t.time_bank_ms)} bank</dd></div>
  </dl>`;
}

/** Whether a newcomer may still join (the server has the last word). */
function joinable(t) {
  if (t.entrants >= t.max_entrants) return false;
  if (t.status === 'open') return true;
  if (t.status !== 'running') return false;
  return t.format === 'arena' || (t.format === 'swiss' && t.round <= 1);
}

/** Whether the tournament's entry rule lets the logged-in account in (its kind). */
const admits = (t, conn) => (t.entry === 'bots' ? conn.bot : t.entry === 'people' ? !conn.bot : true);

/** Join, withdraw (after a confirmation), or the way to log in. */
function Entry({ t, me: listed, conn }) {
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState(null);
  // What the server said yes to, until the tournament's next state shows it.
  const [done, setDone] = useState(null); // 'joined' | 'withdrew' | 'paused' | 'resumed'
  if (isOver(t.status)) return null;
  let me = listed;
  if (done === 'joined' && !listed) me = { name: conn.name };
  if (done === 'withdrew' && listed && !listed.withdrawn) me = { ...listed, withdrawn: true };
  if (done === 'paused' && me && !me.paused) me = { ...me, paused: true };
  if (done === 'resumed' && me?.paused) me = { ...me, paused: false };
  const attempt = (fn, outcome) => async () => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      setDone(outcome);
    } catch (e) { setError(e); }
    setBusy(false);
    setAsking(false);
  };
  let body;
  if (!conn.name) {
    body = joinable(t)
      ? html`<a class="button primary" href=${accountHref()} data-testid="login-to-join">Log in to join</a>`
      : null;
  } else if (me && me.withdrawn) {
    body = html`<span class="note">You withdrew from this tournament.</span>`;
  } else if (me) {
    body = html`<span class="entered" data-testid="entered">You are in this tournament.</span>
      ${asking
        ? html`<span class="confirm" role="group" aria-label="Withdraw?">Withdraw? Games not yet played are lost.
            <button type="button" class="danger" data-testid="withdraw-confirm" disabled=${busy}
              onClick=${attempt(() => withdrawTournament(t.tournament), 'withdrew')}>Yes, withdraw</button>
            <button type="button" onClick=${() => setAsking(false)}>Stay in</button></span>`
        : html`<button type="button" data-testid="withdraw" onClick=${() => setAsking(true)}>Withdraw</button>`}
      ${t.format === 'arena' && (me.paused
        ? html`<span class="note" data-testid="paused">Paused: you get no new games.</span>
            <button type="button" class="primary" data-testid="resume" disabled=${busy}
              onClick=${attempt(() => pauseTournament(t.tournament, false), 'resumed')}>Resume</button>`
        : html`<button type="button" data-testid="pause" disabled=${busy} title="No new games until you resume"
              onClick=${attempt(() => pauseTournament(t.tournament, true), 'paused')}>Pause</button>`)}`;
  } else if (joinable(t) && !admits(t, conn)) {
    body = html`<span class="note" data-testid="entry-excluded">${t.entry === 'bots'
      ? 'This tournament is for bots only: enter it with a bot (arbiter bot, or a starter kit).'
      : 'This tournament is for people only: this account is a bot\'s.'}</span>`;
  } else if (joinable(t)) {
    body = html`<button type="button" class="primary" data-testid="join" disabled=${busy}
      onClick=${attempt(() => joinTournament(t.tournament), 'joined')}>${busy ? 'Joining…' : 'Join'}</button>`;
  } else {
    body = html`<span class="note">This tournament takes no more entrants.</span>`;
  }
  return html`<div class="entry links" data-testid="tournament-entry">
    ${body}
    ${error && html`<p class="form-error" role="alert">${error.message}</p>`}
    ${t.format === 'arena' && (me || !conn.name || joinable(t)) && !me?.withdrawn && html`<p class="muted entry-note">
      The arena pairs entrants who have a page of Arbiter open, and takes you to each game: keep this page open.</p>`}
  </div>`;
}

function resultText(game) {
  if (!game.ranks) return null;
  return seatPoints(game.ranks).map(points).join('–');
}

/** Games as a table: players in seat order (the winner in bold), the result, a link. */
function GameTable({ t, games, me, showRound = false }) {
  return html`<div class="table-wrap"><table class="pairings">
    <thead><tr>
      ${showRound && html`<th scope="col" class="num">Round</th>`}
      <th scope="col">Players</th><th scope="col">Result</th><th scope="col"><span class="visually-hidden">Match</span></th>
    </tr></thead>
    <tbody>${games.map((g) => html`<tr key=${g.game} data-testid="game" data-status=${g.status}>
      ${showRound && html`<td class="num">${g.round}</td>`}
      <td class="players-cell">${g.players.map((p, i) => html`${i > 0 ? html`<span class="muted"> – </span>` : ''}<a
        href=${entrantHref(t.tournament, p)}
        class=${[g.ranks && g.ranks[i] === 1 && !g.ranks.every((r) => r === 1) ? 'won' : '', sameName(p, me) ? 'you' : ''].join(' ').trim() || null}
        >${p}</a>`)}</td>
      <td class="result-cell"><span class="score">${resultText(g) || ''}</span> <${GameStatus} game=${g} /></td>
      <td class="link-cell"><${GameLink} game=${g} me=${me} /></td>
    </tr>`)}</tbody>
  </table></div>`;
}

function ByeLine({ byes }) {
  if (!byes || byes.length === 0) return null;
  return html`<p class="muted byes">Bye (1 point): ${byes.map((b, i) => html`${i > 0 ? ', ' : ''}<span>${b.player}</span>`)}</p>`;
}

/** Swiss and round-robin: the current round open, the earlier ones folded. */
function Rounds({ t, me }) {
  const byRound = new Map();
  for (const g of t.games) {
    if (!byRound.has(g.round)) byRound.set(g.round, []);
    byRound.get(g.round).push(g);
  }
  const byesOf = (round) => (t.byes || []).filter((b) => b.round === round);
  const current = byRound.get(t.round) || [];
  const earlier = [...byRound.keys()].filter((r) => r < t.round).sort((a, b) => b - a);
  if (t.round === 0) return null;
  return html`<section aria-labelledby="round-h" data-testid="current-round">
      <h2 id="round-h">Round ${t.round}${t.format === 'swiss' && t.rounds ? html` <span class="muted">of ${t.rounds}</span>` : ''}</h2>
      ${current.length === 0 && html`<p class="note">No games this round.</p>`}
      ${current.length > 0 && html`<${GameTable} t=${t} games=${current} me=${me} />`}
      <${ByeLine} byes=${byesOf(t.round)} />
    </section>
    ${earlier.length > 0 && html`<section aria-labelledby="earlier-h" data-testid="earlier-rounds">
      <h2 id="earlier-h">Earlier rounds</h2>
      ${earlier.map((r) => html`<details class="round" key=${r} data-testid="earlier-round">
        <summary>Round ${r} <span class="muted">· ${byRound.get(r).length} game${byRound.get(r).length === 1 ? '' : 's'}</span></summary>
        <${GameTable} t=${t} games=${byRound.get(r)} me=${me} />
        <${ByeLine} byes=${byesOf(r)} />
      </details>`)}
    </section>`}`;
}

/** An arena: the games being played, the latest results, the rest folded. */
function ArenaGames({ t, me }) {
  const now = t.games.filter((g) => g.status === 'playing' || g.status === 'pending');
  const done = t.games.filter((g) => g.status === 'finished' || g.status === 'forfeit').reverse();
  if (t.status === 'open') return null;
  return html`${(t.status === 'running' || now.length > 0) && html`<section aria-labelledby="now-h" data-testid="current-round">
      <h2 id="now-h">Games now</h2>
      ${now.length === 0
        ? html`<p class="note">Nobody is playing right now: players are paired as soon as two are free.</p>`
        : html`<${GameTable} t=${t} games=${now} me=${me} />`}
    </section>`}
    ${done.length > 0 && html`<section aria-labelledby="results-h" data-testid="earlier-rounds">
      <h2 id="results-h">Latest results</h2>
      <${GameTable} t=${t} games=${done.slice(0, ARENA_RECENT)} me=${me} />
      ${done.length > ARENA_RECENT && html`<details class="round">
        <summary>${done.length - ARENA_RECENT} earlier game${done.length - ARENA_RECENT === 1 ? '' : 's'}</summary>
        <${GameTable} t=${t} games=${done.slice(ARENA_RECENT)} me=${me} />
      </details>`}
    </section>`}`;
}

function Downloads({ t }) {
  const base = `/api/tournaments/${encodeURIComponent(t.tournament)}/results`;
  return html`<p class="links downloads" data-testid="downloads">
    <span class="muted">Results:</span>
    <a href=${`${base}.json`} download=${`tournament-${t.tournament}.json`} data-testid="results-json">JSON</a>
    <a href=${`${base}.csv`} download=${`tournament-${t.tournament}-standings.csv`} data-testid="results-csv">CSV (standings)</a>
  </p>`;
}

/** #/tournament/<id> */
export function Tournament({ id }) {
  const { conn, error, live, t, game } = useTournamentPage(id);
  useTitle(t ? t.name : `Tournament ${id}`);
  if (error && !t) return html`<${Failed} id=${id} error=${error} />`;
  if (!t) return html`<h1>Tournament ${id}</h1><${Loading} what="Loading the tournament" />`;
  const me = entryOf(t, conn.name);
  const entrants = t.standings || [];
  return html`<p class="crumb"><a href="#/tournaments">← Tournaments</a></p>
    <h1 data-testid="tournament-name">${t.name} <${StatusBadge} status=${t.status} /> <${LiveMark} t=${t} live=${live} conn=${conn} /></h1>
    <${Facts} t=${t} game=${game} />
    <${Entry} t=${t} me=${me} conn=${conn} />
    ${t.status === 'open'
      ? html`<section aria-labelledby="entrants-h" data-testid="entrants">
          <h2 id="entrants-h">Entrants</h2>
          ${entrants.length === 0
            ? html`<p class="note">Nobody has joined yet.</p>`
            : html`<ul class="entrant-list">${entrants.map((s) => html`<li key=${s.name} class=${sameName(s.name, conn.name) ? 'you' : null}>
                <a href=${playerHref(s.name)}>${s.name}</a>${s.withdrawn ? html` <span class="muted">(withdrew)</span>` : ''}</li>`)}</ul>`}
        </section>`
      : html`<section aria-labelledby="standings-h" data-testid="standings">
          <h2 id="standings-h">Standings</h2>
          ${entrants.length === 0 ? html`<p class="note">Nobody played.</p>` : html`<${Standings} t=${t} rows=${entrants} me=${conn.name} />`}
          ${entrants.length > 0 && (t.tiebreaks || []).length > 0 && html`<p class="muted table-note">${'Equal points are ordered by '}
            ${t.tiebreaks.map((b, i) => html`${i > 0 ? (i === t.tiebreaks.length - 1 ? ' then ' : ', ') : ''}<span title=${TIEBREAKS[b]?.title}>${(TIEBREAKS[b]?.title || b).split(':')[0]}</span>`)}.</p>`}
        </section>`}
    ${t.format === 'arena' ? html`<${ArenaGames} t=${t} me=${conn.name} />` : html`<${Rounds} t=${t} me=${conn.name} />`}
    ${t.status !== 'open' && html`<${Downloads} t=${t} />`}`;
}
