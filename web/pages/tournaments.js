// Tournaments (docs/tournaments.md): #/tournaments lists them (open and running first)
// and lets a signed-in person create one; #/tournament/<id> shows one live (its
// settings, joining and withdrawing, the standings with their tie-breaks, the current
// round's games and the earlier rounds, the results to download);
// #/tournament/<id>/player/<name> shows one entrant's line and games. The lobby lists
// the open and running ones (`TournamentsBox`), and `TournamentCall` offers a person
// their tournament game when it starts while they look at another page.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { useApi } from '../lib/api.js';
import { useConnection } from '../lib/connection.js';
import { clockText, useNow } from '../lib/matchbits.js';
import {
  NEXT_GAME_AFTER_S, createTournament, dismissCall, entryOf, joinTournament, nextGameFollows,
  pauseTournament, useTournament, useTournamentCall, withdrawTournament,
} from '../lib/tournaments.js';
import { ErrorBox, Loading, When, playerHref, rulesetNames, useTitle } from '../lib/ui.js';
import { accountHref } from './account.js';

const LIST_EVERY_MS = 5000;
const LOBBY_SHOWN = 6; // tournaments the lobby lists; the page has them all
const ARENA_RECENT = 8; // an arena's latest results shown; the rest fold away

const FORMATS = { swiss: 'Swiss', arena: 'Arena', round_robin: 'Round-robin' };
/** Who may enter (the tournament's `entry`): each rule as the form offers it and as a fact. */
const ENTRY = {
  both: { option: 'People and bots', fact: 'people and bots' },
  people: { option: 'People only', fact: 'people only' },
  bots: { option: 'Bots only', fact: 'bots only' },
};
const entryText = (t) => ENTRY[t.entry || 'both']?.fact || t.entry;
const FORMAT_HELP = {
  swiss: 'A set number of rounds; each round pairs players of similar score who have not met.',
  arena: 'For a set time: whoever finishes a game is paired again at once. More games, more points.',
  round_robin: 'Everyone meets everyone twice, once in each seat.',
};

/** Each tie-break's column: a short heading, and what it counts (docs/tournaments.md). */
const TIEBREAKS = {
  buchholz: { label: 'Buchholz', title: 'Buchholz: the final points of every opponent met, added up (higher is better)' },
  sonneborn_berger: {
    label: 'S-B',
    title: 'Sonneborn-Berger: the points of the opponents beaten, plus half the points of those drawn (higher is better)',
  },
  wins: { label: 'Wins', title: 'Wins: played games won (higher is better)' },
  games_played: { label: 'Games', title: 'Games played: the same points from fewer games is better (lower is better)' },
  placements: { label: 'Places', title: 'Placements: the sum of the places finished in each game (lower is better)' },
};

const SEATS = ['first', 'second', 'third', 'fourth']; // seat 0 moves first

const tournamentHref = (id) => `#/tournament/${encodeURIComponent(id)}`;
const entrantHref = (id, name) => `${tournamentHref(id)}/player/${encodeURIComponent(name)}`;
const rulesHref = (ruleset) => `#/rules/${encodeURIComponent(ruleset)}`;
const sameName = (a, b) => !!a && !!b && a.toLowerCase() === b.toLowerCase();
const isOver = (status) => status === 'finished' || status === 'cancelled';

/** 1.5 → "1½", 0.75 → "0.75": points as people write them. */
function points(n) {
  if (n == null) return '–';
  const whole = Math.floor(n);
  if (n - whole === 0.5) return whole === 0 ? '½' : `${whole}½`;
  return String(Math.round(n * 100) / 100);
}

function seconds(ms) {
  const s = ms / 1000;
  return Number.isInteger(s) ? `${s} s` : `${s.toFixed(1)} s`;
}

function duration(ms) {
  const minutes = Math.round(ms / 60000);
  return minutes % 60 === 0 && minutes >= 60 ? `${minutes / 60} h` : `${minutes} min`;
}

/** "Swiss, 5 rounds", "Arena, 30 min", "Round-robin"; games of more than two say so. */
function formatText(t) {
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
function Progress({ t }) {
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
function TournamentCard({ t, names }) {
  return html`<article class="card tournament-card" data-testid="tournament-card" data-tournament=${t.id}>
    <h3><a href=${tournamentHref(t.id)}>${t.name}</a> <${StatusBadge} status=${t.status} /></h3>
    <p class="muted">${names[t.ruleset] || t.ruleset} · ${formatText(t)}</p>
    <p><${Progress} t=${t} /></p>
    <p class="muted">${t.entrants} of ${t.max_entrants} entrants · ${t.rated ? 'rated' : 'casual'}${
      t.entry && t.entry !== 'both' ? ` · ${entryText(t)}` : ''}</p>
  </article>`;
}

/** The lobby's box: the open and running tournaments, and the way to all of them. */
export function TournamentsBox({ rulesets }) {
  const conn = useConnection();
  const list = useApi('/api/tournaments', { every: LIST_EVERY_MS * 2 });
  const names = rulesetNames(rulesets);
  const going = (list.data?.tournaments || []).filter((t) => !isOver(t.status));
  return html`<section aria-labelledby="tournaments-h" data-testid="lobby-tournaments">
    <h2 id="tournaments-h">Tournaments</h2>
    ${list.error && html`<${ErrorBox} error=${list.error}>Could not load the tournaments.<//>`}
    ${!list.data && !list.error && html`<${Loading} what="Loading tournaments" />`}
    ${list.data && going.length === 0 && html`<p class="note">No tournament is open or running.</p>`}
    ${going.length > 0 && html`<div class="cards">
      ${going.slice(0, LOBBY_SHOWN).map((t) => html`<${TournamentCard} key=${t.id} t=${t} names=${names} />`)}
    </div>`}
    <p class="links"><a class="button" href="#/tournaments">${going.length > LOBBY_SHOWN ? `All ${going.length} tournaments` : 'All tournaments'}</a>
      ${conn.name && html`<a class="button" href="#/tournaments?create=1">Create a tournament</a>`}</p>
  </section>`;
}

/** "YYYY-MM-DDTHH:MM" in local time, as a datetime-local field reads and writes it. */
function localInput(date) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** An hour from now, on a quarter hour. */
function defaultStart() {
  const at = new Date(Date.now() + 3600 * 1000);
  at.setMinutes(Math.ceil(at.getMinutes() / 15) * 15, 0, 0);
  return localInput(at);
}

/** The form that creates a tournament; errors from the server show under it. */
function NewTournament({ rulesets }) {
  const [id, setId] = useState(rulesets[0]?.id);
  const ruleset = rulesets.find((r) => r.id === id) || rulesets[0];
  const [name, setName] = useState('');
  const [format, setFormat] = useState('swiss');
  const [seats, setSeats] = useState(2);
  const [rounds, setRounds] = useState(5);
  const [minutes, setMinutes] = useState(30);
  const [startBy, setStartBy] = useState('count');
  const [count, setCount] = useState(8);
  const [startAt, setStartAt] = useState(defaultStart);
  const [deadline, setDeadline] = useState(Math.round((ruleset.deadline_ms || 20000) / 1000));
  const [bank, setBank] = useState(30);
  const [rated, setRated] = useState(true);
  const [entry, setEntry] = useState('both');
  const [max, setMax] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const [least, most] = ruleset.seats;
  const fewest = Math.max(2, least);
  const severalSeats = most > fewest && format !== 'arena';
  const choose = (next) => {
    const r = rulesets.find((x) => x.id === next);
    setId(next);
    setSeats(Math.max(2, r.seats[0]));
    setDeadline(Math.round((r.deadline_ms || 20000) / 1000));
  };
  const submit = async (event) => {
    event.preventDefault();
    const settings = { ruleset: ruleset.id, format, rated };
    if (name.trim()) settings.name = name.trim();
    if (severalSeats) settings.seats = Number(seats);
    if (format === 'swiss') settings.rounds = Number(rounds);
    if (format === 'arena') settings.duration_ms = Math.round(Number(minutes) * 60000);
    if (startBy === 'count') {
      settings.start_when = Number(count);
    } else {
      const at = new Date(startAt); // the field's local time
      if (Number.isNaN(at.getTime())) { setError({ message: 'Choose the day and time it starts.' }); return; }
      settings.starts_at = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    if (deadline !== '') settings.deadline_ms = Math.round(Number(deadline) * 1000);
    if (bank !== '') settings.time_bank_ms = Math.round(Number(bank) * 1000);
    if (max !== '') settings.max_entrants = Number(max);
    if (entry !== 'both') settings.entry = entry;
    setBusy(true);
    setError(null);
    try {
      const created = await createTournament(settings);
      location.hash = tournamentHref(created);
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  const field = (setter) => (e) => setter(e.currentTarget.value);
  return html`<form class="new-table new-tournament" data-testid="new-tournament" onSubmit=${submit}
      aria-describedby=${error ? 'tournament-error' : null}>
    <label>Name
      <input type="text" data-testid="tournament-name" maxlength="80" value=${name}
        placeholder=${`${ruleset.name} ${format.replace('_', '-')}`} onInput=${field(setName)} /></label>
    <label>Game
      <select data-testid="tournament-ruleset" value=${ruleset.id} onChange=${(e) => choose(e.currentTarget.value)}>
        ${rulesets.map((r) => html`<option key=${r.id} value=${r.id}>${r.name}</option>`)}
      </select></label>
    <label>Format
      <select data-testid="tournament-format" value=${format} onChange=${field(setFormat)}
        aria-describedby="format-help">
        ${Object.entries(FORMATS).map(([key, label]) => html`<option key=${key} value=${key}>${label}</option>`)}
      </select></label>
    ${severalSeats && html`<label>Players a game
      <input type="number" data-testid="tournament-seats" min=${fewest} max=${most} value=${seats}
        onInput=${field(setSeats)} /></label>`}
    ${format === 'swiss' && html`<label>Rounds
      <input type="number" data-testid="tournament-rounds" min="1" max="50" value=${rounds}
        onInput=${field(setRounds)} /></label>`}
    ${format === 'arena' && html`<label>Minutes
      <input type="number" data-testid="tournament-minutes" min="1" max="1440" value=${minutes}
        onInput=${field(setMinutes)} /></label>`}
    <p class="field-help muted" id="format-help">${FORMAT_HELP[format]}</p>
    <fieldset class="options start">
      <legend>Starts</legend>
      <label class="check"><input type="radio" name="start-by" value="count" data-testid="start-by-count"
        checked=${startBy === 'count'} onChange=${() => setStartBy('count')} /> when
        <input type="number" class="inline" data-testid="tournament-start-when" min=${fewest} value=${count}
          aria-label="Entrants needed to start" onInput=${field(setCount)} onFocus=${() => setStartBy('count')} />
        have joined</label>
      <label class="check"><input type="radio" name="start-by" value="time" data-testid="start-by-time"
        checked=${startBy === 'time'} onChange=${() => setStartBy('time')} /> at
        <input type="datetime-local" class="inline" data-testid="tournament-starts-at" value=${startAt}
          min=${localInput(new Date())} aria-label="Start time (your time zone)"
          onInput=${field(setStartAt)} onFocus=${() => setStartBy('time')} /></label>
    </fieldset>
    <label>Seconds per move
      <input type="number" data-testid="tournament-deadline" min="0.1" step="any" value=${deadline}
        onInput=${field(setDeadline)} /></label>
    <label>Time bank (seconds)
      <input type="number" data-testid="tournament-bank" min="0" step="any" value=${bank}
        onInput=${field(setBank)} /></label>
    <label>Most entrants
      <input type="number" data-testid="tournament-max" min="2" step="1" value=${max} placeholder="the format's limit"
        onInput=${field(setMax)} /></label>
    <label>Who may enter
      <select data-testid="tournament-entry-rule" value=${entry} onChange=${field(setEntry)}>
        ${Object.entries(ENTRY).map(([key, { option }]) => html`<option key=${key} value=${key}>${option}</option>`)}
      </select></label>
    <label class="check"><input type="checkbox" data-testid="tournament-rated" checked=${rated}
      onChange=${(e) => setRated(e.currentTarget.checked)} /> Rated games</label>
    ${error && html`<p class="form-error" role="alert" id="tournament-error" data-testid="tournament-error">
      ${error.message}${error.code && html` <span class="muted">(${error.code})</span>`}</p>`}
    <p class="links"><button type="submit" class="primary" data-testid="create-tournament" disabled=${busy}>
      ${busy ? 'Creating…' : 'Create the tournament'}</button>
      <a href=${rulesHref(ruleset.id)}>${ruleset.name} rules</a></p>
  </form>`;
}

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

/** The standings: rank, player, points, games, and the tie-breaks in the order they apply. */
function Standings({ t, rows, me, label = 'Standings' }) {
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
const LEFT = 255;

/** Each seat's points from a game's ranks: 1 for each seat finished ahead of, ½ for each tie. */
function seatPoints(ranks) {
  return ranks.map((mine, i) => ranks.reduce((sum, other, j) => {
    if (i === j || mine === LEFT) return sum;
    if (mine < other) return sum + 1;
    return mine === other ? sum + 0.5 : sum;
  }, 0));
}

function resultText(game) {
  if (!game.ranks) return null;
  return seatPoints(game.ranks).map(points).join('–');
}

/** Play, watch or replay a game's match, whichever fits. */
function GameLink({ game, me }) {
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

function GameStatus({ game }) {
  if (game.status === 'playing') return html`<span class="badge live">playing</span>`;
  if (game.status === 'pending') return html`<span class="badge">starting</span>`;
  if (game.status === 'forfeit') return html`<span class="badge status-cancelled">forfeit</span>`;
  return null;
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

/** The heading of a tournament's pages, with a live marker while its messages come. */
function LiveMark({ t, live, conn }) {
  if (isOver(t.status)) return null;
  if (conn.status !== 'open') return html`<span class="muted live-mark">reconnecting…</span>`;
  return live ? html`<span class="badge live live-mark" title="Updates as games end">live</span>` : null;
}

function useTournamentPage(id) {
  const conn = useConnection();
  const state = useTournament(id);
  const rulesets = useApi('/api/rulesets');
  const t = state.data;
  const game = t ? rulesetNames(rulesets.data)[t.ruleset] || t.ruleset : null;
  return { conn, ...state, t, game };
}

function Failed({ id, error }) {
  const missing = error.status === 404 || error.code === 'no_such_tournament' || error.code === 'not_found';
  return html`<h1>Tournament ${id}</h1>
    <${ErrorBox} error=${error}>${missing ? 'There is no such tournament.' : 'Could not load this tournament.'}<//>
    <p><a href="#/tournaments">All tournaments</a></p>`;
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

/** How one entrant did in one game: "won", "lost", "draw", or the place of several. */
function placeText(game, seat) {
  if (!game.ranks) return null;
  const mine = game.ranks[seat];
  if (mine === LEFT) return 'left (lost)';
  const ahead = game.ranks.filter((r) => r < mine).length;
  const tied = game.ranks.filter((r) => r === mine).length - 1;
  if (game.ranks.length === 2) return tied ? 'draw' : ahead ? 'lost' : 'won';
  const place = ahead + 1;
  const suffix = place === 1 ? 'st' : place === 2 ? 'nd' : place === 3 ? 'rd' : 'th';
  return `${tied ? 'shared ' : ''}${place}${suffix} of ${game.ranks.length}`;
}

/** #/tournament/<id>/player/<name>: the entrant's standings line and every game of theirs. */
export function TournamentPlayer({ id, name }) {
  const { conn, error, live, t } = useTournamentPage(id);
  useTitle(t ? `${name} · ${t.name}` : name);
  if (error && !t) return html`<${Failed} id=${id} error=${error} />`;
  if (!t) return html`<h1>${name}</h1><${Loading} what="Loading the tournament" />`;
  const line = entryOf(t, name);
  const back = html`<p class="crumb"><a href=${tournamentHref(t.tournament)} data-testid="back-to-tournament">← ${t.name}</a></p>`;
  if (!line) {
    return html`${back}<h1>${name}</h1>
      <p class="note">${name} has not entered ${t.name}.</p>`;
  }
  const who = line.name;
  const games = t.games
    .map((g) => ({ g, seat: g.players.findIndex((p) => sameName(p, who)) }))
    .filter(({ seat }) => seat >= 0);
  const byes = (t.byes || []).filter((b) => sameName(b.player, who));
  const rows = [
    ...games.map(({ g, seat }) => ({ round: g.round, key: `g${g.game}`, g, seat })),
    ...byes.map((b) => ({ round: b.round, key: `b${b.round}`, bye: true })),
  ].sort((a, b) => a.round - b.round || (a.g?.game ?? 0) - (b.g?.game ?? 0));
  const arena = t.format === 'arena';
  return html`${back}
    <h1 data-testid="entrant-name">${who} <span class="muted">· ${t.name}</span> <${LiveMark} t=${t} live=${live} conn=${conn} /></h1>
    <p class="links"><a href=${playerHref(who)}>${who}'s ratings and matches</a></p>
    <section aria-labelledby="line-h">
      <h2 id="line-h">Standing</h2>
      <${Standings} t=${t} rows=${[line]} me=${conn.name} label=${`${who}'s standing`} />
    </section>
    <section aria-labelledby="their-games-h" data-testid="entrant-games">
      <h2 id="their-games-h">Games</h2>
      ${rows.length === 0 ? html`<p class="note">No games yet.</p>` : html`<div class="table-wrap"><table class="pairings">
        <thead><tr><th scope="col" class="num">${arena ? 'Wave' : 'Round'}</th><th scope="col">Opponent${t.seats > 2 ? 's' : ''}</th>
          <th scope="col">Seat</th><th scope="col">Result</th><th scope="col" class="num">Points</th>
          <th scope="col"><span class="visually-hidden">Match</span></th></tr></thead>
        <tbody>${rows.map((r) => r.bye
          ? html`<tr key=${r.key} data-testid="entrant-game"><td class="num">${r.round}</td><td class="muted">bye</td><td></td>
              <td>bye</td><td class="num">1</td><td></td></tr>`
          : html`<tr key=${r.key} data-testid="entrant-game" data-status=${r.g.status}>
              <td class="num">${r.round}</td>
              <td>${r.g.players.filter((_, i) => i !== r.seat).map((p, i) => html`${i > 0 ? ', ' : ''}<a href=${entrantHref(t.tournament, p)}>${p}</a>`)}</td>
              <td>${SEATS[r.seat] || `${r.seat + 1}th`}</td>
              <td class=${`result-${placeText(r.g, r.seat) || 'none'}`}>${placeText(r.g, r.seat) || ''} <${GameStatus} game=${r.g} /></td>
              <td class="num">${r.g.ranks ? points(seatPoints(r.g.ranks)[r.seat]) : ''}</td>
              <td class="link-cell"><${GameLink} game=${r.g} me=${conn.name} /></td>
            </tr>`)}</tbody>
      </table></div>`}
    </section>`;
}

/**
 * A tournament game of yours started while another page shows: say so, with the way
 * there. On the page of your game that just ended, the next one opens by itself after
 * a few seconds (unless you choose to stay).
 */
export function TournamentCall({ path }) {
  const current = useTournamentCall();
  const [stayed, setStayed] = useState(null);
  const follows = nextGameFollows(current) && stayed !== current?.match;
  const now = useNow(follows);
  useEffect(() => {
    if (!follows) return undefined;
    const wait = Math.max(0, current.at + NEXT_GAME_AFTER_S * 1000 - Date.now());
    const timer = setTimeout(() => { location.hash = `#/match/${current.match}`; }, wait);
    return () => clearTimeout(timer);
  }, [follows, current?.match, path]);
  if (!current || path === `/match/${current.match}`) return null;
  const left = Math.max(0, Math.ceil((current.at + NEXT_GAME_AFTER_S * 1000 - now) / 1000));
  return html`<div class="call" role="status" data-testid="tournament-call">
    <span>${follows ? 'Your next game' : 'Your game'}${current.name
      ? html` in <a href=${tournamentHref(current.tournament)}>${current.name}</a>` : ' in a tournament'}${' has started'}${follows ? ` (opening in ${left} s)` : ''}.</span>
    <a class="button primary" href=${`#/match/${current.match}`} data-testid="call-play">Play it</a>
    ${follows
      ? html`<button type="button" onClick=${() => setStayed(current.match)}>Stay here</button>`
      : html`<button type="button" class="link" onClick=${dismissCall} aria-label="Dismiss">Dismiss</button>`}
  </div>`;
}
