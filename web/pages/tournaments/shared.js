// What the tournament pages share (docs/tournaments.md): the formats, entry rules and
// tie-breaks as the pages name them, links, points as people write them, a tournament's
// card and progress, the standings table, a game's link and status, and the loading of
// one tournament's page with its live marker.
import { html } from '../../lib/html.js';
import { useApi } from '../../lib/api.js';
import { useConnection } from '../../lib/connection.js';
import { clockText, useNow } from '../../lib/matchbits.js';
import { useTournament } from '../../lib/tournaments.js';
import { ErrorBox, When, rulesetNames } from '../../lib/ui.js';

export const LIST_EVERY_MS = 5000;

export const FORMATS = { swiss: 'Swiss', arena: 'Arena', round_robin: 'Round-robin' };
/** Who may enter (the tournament's `entry`): each rule as the form offers it and as a fact. */
export const ENTRY = {
  both: { option: 'People and bots', fact: 'people and bots' },
  people: { option: 'People only', fact: 'people only' },
  bots: { option: 'Bots only', fact: 'bots only' },
};
export const entryText = (t) => ENTRY[t.entry || 'both']?.fact || t.entry;

/** Each tie-break's column: a short heading, and what it counts (docs/tournaments.md). */
export const TIEBREAKS = {
  buchholz: { label: 'Buchholz', title: 'Buchholz: the final points of every opponent met, added up (higher is better)' },
  sonneborn_berger: {
    label: 'S-B',
    title: 'Sonneborn-Berger: the points of the opponents beaten, plus half the points of those drawn (higher is better)',
  },
  wins: { label: 'Wins', title: 'Wins: played games won (higher is better)' },
  games_played: { label: 'Games', title: 'Games played: the same points from fewer games is better (lower is better)' },
  placements: { label: 'Places', title: 'Placements: the sum of the places finished in each game (lower is better)' },
};

export const tournamentHref = (id) => `#/tournament/${encodeURIComponent(id)}`;
export const entrantHref = (id, name) => `${tournamentHref(id)}/player/${encodeURIComponent(name)}`;
export const rulesHref = (ruleset) => `#/rules/${encodeURIComponent(ruleset)}`;
export const sameName = (a, b) => !!a && !!b && a.toLowerCase() === b.toLowerCase();
export const isOver = (status) => status === 'finished' || status === 'cancelled';

/** 1.5 → "1½", 0.75 → "0.75": points as people write them. */
export function points(n) {
  if (n == null) return '–';
  const whole = Math.floor(n);
  if (n - whole === 0.5) return whole === 0 ? '½' : `${whole}½`;
  return String(Math.round(n * 100) / 100);
}

function duration(ms) {
  const minutes = Math.round(ms / 60000);
  return minutes % 60 === 0 && minutes >= 60 ? `${minutes / 60} h` : `${minutes} min`;
}

/** "Swiss, 5 rounds", "Arena, 30 min", "Round-robin"; games of more than two say so. */
export function formatText(t) {
  let text = FORMATS[t.format] || t.format;
  if (t.format === 'swiss' && t.rounds) text += `, ${t.rounds} round${t.rounds === 1 ? '' : 's'}`;
  if (t.format === 'arena' && t.duration_ms) text += `, ${duration(t.duration_ms)}`;
  if (t.seats > 2) text += ` · ${t.seats} players a game`;
  return text;
}

/** When an open tournament starts: "when 8 have joined", "at 18:00", or both. */
function startText(t) {
  const parts = [];
  if (t.start_when) parts.push(`when ${t.start_when} have joined`);
  if (t.starts_at) {
    const at = new Date(t.starts_at);
    parts.push(`at ${at.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })}`);
  }
  return `Starts ${parts.join(' or ')}`;
}

/** When an arena ends (ms since the epoch), from its end or its start and length. */
function arenaEnd(t) {
  if (t.ends_at) return new Date(t.ends_at).getTime();
  if (t.started_at && t.duration_ms) return new Date(t.started_at).getTime() + t.duration_ms;
  return null;
}

/** Where a tournament is: its start, its round, its time left, or its end. */
export function Progress({ t }) {
  const end = t.format === 'arena' && t.status === 'running' ? arenaEnd(t) : null;
  const now = useNow(end != null);
  if (t.status === 'open') return html`<span>${startText(t)}</span>`;
  if (t.status === 'cancelled') return html`<span>Cancelled: too few joined</span>`;
  if (t.status === 'finished') {
    return html`<span>Finished <${When} at=${t.finished_at} />${t.format !== 'arena' && t.round ? ` after ${t.round} round${t.round === 1 ? '' : 's'}` : ''}</span>`;
  }
  if (end != null) {
    const left = end - now;
    return left > 0
      ? html`<span><strong data-testid="time-left">${clockText(left)}</strong> left</span>`
      : html`<span>Time is up: the last games are being played</span>`;
  }
  if (t.format === 'swiss' && t.rounds) return html`<span>Round ${t.round} of ${t.rounds}</span>`;
  return html`<span>Round ${t.round}</span>`;
}

export function StatusBadge({ status }) {
  return html`<span class=${`badge status-${status}`} data-testid="tournament-status">${status}</span>`;
}

/** One tournament in a list: name, game, format, where it is, how many joined. */
export function TournamentCard({ t, names }) {
  return html`<article class="card tournament-card" data-testid="tournament-card" data-tournament=${t.id}>
    <h3><a href=${tournamentHref(t.id)}>${t.name}</a> <${StatusBadge} status=${t.status} /></h3>
    <p class="muted">${names[t.ruleset] || t.ruleset} · ${formatText(t)}</p>
    <p><${Progress} t=${t} /></p>
    <p class="muted">${t.entrants} of ${t.max_entrants} entrants · ${t.rated ? 'rated' : 'casual'}${
      t.entry && t.entry !== 'both' ? ` · ${entryText(t)}` : ''}</p>
  </article>`;
}

/** The standings: rank, player, points, games, and the tie-breaks in the order they apply. */
export function Standings({ t, rows, me, label = 'Standings' }) {
  const breaks = t.tiebreaks || [];
  return html`<div class="table-wrap"><table class="standings" aria-label=${label}>
    <thead><tr>
      <th scope="col" class="num" title="Rank">#</th>
      <th scope="col">Player</th>
      <th scope="col" class="num" title=${t.seats > 2
        ? 'Points: 1 for each player finished ahead of, ½ for each tie; a bye is 1'
        : 'Points: a win is 1, a draw ½, a bye 1'}>Points</th>
      <th scope="col" class="num" title="Games played (forfeits and byes not counted)">Played</th>
      <th scope="col" class="num" title="Won, drawn and lost">W–D–L</th>
      <th scope="col" class="num" title="Rounds without a game, a point each">Byes</th>
      <th scope="col" class="num" title="Games decided without play (a withdrawal)">Forfeits</th>
      ${breaks.map((b) => html`<th scope="col" class="num tiebreak" key=${b}
        title=${TIEBREAKS[b]?.title || b}>${TIEBREAKS[b]?.label || b}</th>`)}
    </tr></thead>
    <tbody>${rows.map((s) => html`<tr key=${s.name} data-testid="standing" data-player=${s.name}
        class=${[sameName(s.name, me) ? 'you' : '', s.withdrawn ? 'withdrawn' : ''].join(' ').trim() || null}>
      <td class="num">${s.rank}</td>
      <td><a href=${entrantHref(t.tournament, s.name)}>${s.name}</a>${sameName(s.name, me) ? ' (you)' : ''}
        ${s.bot && html` <span class="badge bot" data-testid="bot-badge" title="A program plays this account">bot</span>`}
        ${s.withdrawn && html` <span class="muted">(withdrew)</span>`}
        ${s.paused && html` <span class="muted">(paused)</span>`}</td>
      <td class="num" data-testid="points"><strong>${points(s.points)}</strong></td>
      <td class="num" data-testid="played">${s.played}</td>
      <td class="num">${s.wins}–${s.draws}–${s.losses}</td>
      <td class="num">${s.byes}</td>
      <td class="num">${s.forfeits}</td>
      ${breaks.map((b) => html`<td class="num" key=${b}>${points(s.tiebreaks?.[b])}</td>`)}
    </tr>`)}</tbody>
  </table></div>`;
}

/** A game's rank for a seat its player left to the house bot: a loss, no points. */
export const LEFT = 255;

/** Each seat's points from a game's ranks: 1 for each seat finished ahead of, ½ for each tie. */
export function seatPoints(ranks) {
  return ranks.map((mine, i) => ranks.reduce((sum, other, j) => {
    if (i === j || mine === LEFT) return sum;
    if (mine < other) return sum + 1;
    return mine === other ? sum + 0.5 : sum;
  }, 0));
}

/** Play, watch or replay a game's match, whichever fits. */
export function GameLink({ game, me }) {
  if (game.match == null) return null;
  if (game.status === 'playing') {
    return game.players.some((p) => sameName(p, me))
      ? html`<a class="button primary" data-testid="play-game" href=${`#/match/${game.match}`}>Play</a>`
      : html`<a class="button" data-testid="watch-game" href=${`#/watch/${game.match}`}>Watch</a>`;
  }
  if (game.status === 'finished') {
    return html`<a class="button" data-testid="replay-game" href=${`#/replay/${game.match}`}>Replay</a>`;
  }
  return null;
}

export function GameStatus({ game }) {
  if (game.status === 'playing') return html`<span class="badge live">playing</span>`;
  if (game.status === 'pending') return html`<span class="badge">starting</span>`;
  if (game.status === 'forfeit') return html`<span class="badge status-cancelled">forfeit</span>`;
  return null;
}

/** The heading of a tournament's pages, with a live marker while its messages come. */
export function LiveMark({ t, live, conn }) {
  if (isOver(t.status)) return null;
  if (conn.status !== 'open') return html`<span class="muted live-mark">reconnecting…</span>`;
  return live ? html`<span class="badge live live-mark" title="Updates as games end">live</span>` : null;
}

export function useTournamentPage(id) {
  const conn = useConnection();
  const state = useTournament(id);
  const rulesets = useApi('/api/rulesets');
  const t = state.data;
  const game = t ? rulesetNames(rulesets.data)[t.ruleset] || t.ruleset : null;
  return { conn, ...state, t, game };
}

export function Failed({ id, error }) {
  const missing = error.status === 404 || error.code === 'no_such_tournament' || error.code === 'not_found';
  return html`<h1>Tournament ${id}</h1>
    <${ErrorBox} error=${error}>${missing ? 'There is no such tournament.' : 'Could not load this tournament.'}<//>
    <p><a href="#/tournaments">All tournaments</a></p>`;
}
