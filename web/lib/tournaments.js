// Tournaments over the socket (docs/tournaments.md): list, create, join, withdraw, and
// watch one (the server sends its state now and whenever it changes). `useTournament`
// loads a tournament's whole document over HTTP (every game of every round) and keeps
// it current with the live messages. A tournament game reaches its players as an
// ordinary `match_started` carrying the tournament's id: a person looking at that
// tournament is taken to the game at once; anywhere else a notice offers it (and,
// after one of its games ends, opens the next by itself a few seconds later).
import { useEffect, useState } from 'preact/hooks';
import { getJSON } from './api.js';
import { on, request } from './connection.js';
import { matchState } from './live.js';

const UNWATCH_AFTER_MS = 2000; // a page that comes back at once (a route change) keeps watching
// An arena pairs a "round" (a wave) whenever two entrants are free: its live messages
// carry every game in play and the latest results, so its full list is fetched again
// at most this often rather than at every wave.
const ARENA_REFETCH_MS = 10000;
export const NEXT_GAME_AFTER_S = 5; // after a game ends, its tournament's next one opens by itself

const watchers = new Map(); // tournament id → Set<fn(message)>
const latest = new Map(); // tournament id → its latest `tournament` message
const shown = new Map(); // tournament id → pages showing it now (useTournament)
const unwatchTimers = new Map();

/** The tournaments: open and running ones first, then the latest finished. */
export async function listTournaments() {
  const reply = await request({ type: 'tournaments' }, 'tournaments');
  return reply.tournaments || [];
}

/** Create a tournament from the form's settings; resolves with its id. */
export async function createTournament(settings) {
  const reply = await request({ type: 'create_tournament', ...settings }, 'tournament_created');
  return reply.tournament;
}

export async function joinTournament(id) {
  const key = Number(id);
  await request({ type: 'join_tournament', tournament: key }, 'tournament_joined',
    { accept: (m) => m.tournament === key });
}

export async function withdrawTournament(id) {
  const key = Number(id);
  await request({ type: 'withdraw_tournament', tournament: key }, 'tournament_withdrawn',
    { accept: (m) => m.tournament === key });
}

/** Arena only: stop being paired (`paused`), or be paired again. */
export async function pauseTournament(id, paused) {
  const key = Number(id);
  await request({ type: 'pause_tournament', tournament: key, paused }, 'tournament_paused',
    { accept: (m) => m.tournament === key });
}

function startWatching(id) {
  return request({ type: 'watch_tournament', tournament: id }, 'tournament',
    { accept: (m) => m.tournament === id });
}

/**
 * Call `fn` with tournament `id`'s state messages (`tournament`, then
 * `tournament_ended`) while subscribed; `onError` hears a refused watch. Returns the
 * unsubscribe. One `watch_tournament` per tournament, however many pages listen.
 */
export function watchTournament(id, fn, onError = () => {}) {
  const key = Number(id);
  clearTimeout(unwatchTimers.get(key));
  unwatchTimers.delete(key);
  let listeners = watchers.get(key);
  if (!listeners) {
    listeners = new Set();
    watchers.set(key, listeners);
    startWatching(key).catch(onError);
  } else if (latest.has(key)) {
    fn(latest.get(key));
  }
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
    if (listeners.size > 0) return;
    unwatchTimers.set(key, setTimeout(() => {
      unwatchTimers.delete(key);
      if (watchers.get(key)?.size) return;
      watchers.delete(key);
      request({ type: 'unwatch_tournament', tournament: key }, 'tournament_unwatched',
        { accept: (m) => m.tournament === key }).catch(() => { /* over, or offline: nothing to stop */ });
    }, UNWATCH_AFTER_MS));
  };
}

function tell(id, message) {
  for (const fn of [...(watchers.get(id) || [])]) fn(message);
}

on('tournament', (m) => {
  latest.set(m.tournament, m);
  tell(m.tournament, m);
});
on('tournament_ended', (m) => tell(m.tournament, m));
// A new connection watches nothing: watch again what the pages show.
on('welcome', () => {
  for (const id of watchers.keys()) startWatching(id).catch(() => { /* gone; the page's fetch says so */ });
});

const PROGRESS = { pending: 0, playing: 1, finished: 2, forfeit: 2 };

/**
 * The whole document (every game, from HTTP) brought up to date by the latest live
 * message: its settings, standings and current games, each game taken from whichever
 * copy is further along.
 */
function merge(full, live) {
  if (!live) return full;
  if (!full) return live;
  const games = new Map(full.games.map((g) => [g.game, g]));
  for (const g of live.games || []) {
    const had = games.get(g.game);
    if (!had || PROGRESS[g.status] >= PROGRESS[had.status]) games.set(g.game, g);
  }
  const merged = [...games.values()].sort((a, b) => a.round - b.round || a.game - b.game);
  return { ...full, ...live, type: undefined, games: merged, games_total: Math.max(live.games_total, merged.length) };
}

const over = (status) => status === 'finished' || status === 'cancelled';

/**
 * Tournament `id` as {data, error, live}: loaded over HTTP, then kept current by its
 * live messages (`live` once one came). The full list of games is fetched again when
 * a round is paired (an arena's: at most every few seconds) and when the tournament
 * ends.
 */
export function useTournament(id) {
  const key = Number(id);
  const [state, setState] = useState({ data: null, error: null, live: false });
  useEffect(() => {
    let alive = true;
    let full = null; // the HTTP document
    let live = null; // the latest live message
    let fetching = false;
    let again = false;
    let fetchedAt = 0;
    let later = null; // an arena's next fetch, when one is due
    const show = () => {
      if (alive) setState({ data: merge(full, live), error: null, live: !!live });
    };
    const fail = (error) => {
      if (alive && !full && !live) setState({ data: null, error, live: false });
    };
    const fetchAll = async () => {
      if (fetching) { again = true; return; }
      fetching = true;
      fetchedAt = Date.now();
      try {
        full = await getJSON(`/api/tournaments/${key}`);
        show();
      } catch (e) {
        fail(e);
      } finally {
        fetching = false;
        if (again && alive) { again = false; fetchAll(); }
      }
    };
    const fetchSoon = () => {
      const wait = fetchedAt + ARENA_REFETCH_MS - Date.now();
      if (wait <= 0) fetchAll();
      else if (!later) later = setTimeout(() => { later = null; if (alive) fetchAll(); }, wait);
    };
    fetchAll();
    const stop = watchTournament(key, (message) => {
      if (message.type === 'tournament_ended') {
        if (!full || !over(full.status)) fetchAll();
        return;
      }
      const before = live || full;
      live = message;
      show();
      if (!before) return;
      if (before.status !== message.status) fetchAll();
      else if (before.round !== message.round) (message.format === 'arena' ? fetchSoon : fetchAll)();
    }, fail);
    shown.set(key, (shown.get(key) || 0) + 1);
    return () => {
      alive = false;
      clearTimeout(later);
      stop();
      const n = (shown.get(key) || 1) - 1;
      if (n > 0) shown.set(key, n); else shown.delete(key);
    };
  }, [key]);
  return state;
}

/** The standings line of `name` (any case), or null. */
export function entryOf(doc, name) {
  if (!doc || !name) return null;
  const lower = name.toLowerCase();
  return (doc.standings || []).find((s) => s.name.toLowerCase() === lower) || null;
}

// ---- Taking a person to their tournament games ----

let call = null; // {match, tournament, name, at}: a tournament game of ours not yet opened
const callListeners = new Set();

function setCall(next) {
  call = next;
  for (const fn of callListeners) fn(call);
}

/** The tournament game waiting for this person (null when none), kept current. */
export function useTournamentCall() {
  const [current, setCurrent] = useState(call);
  useEffect(() => {
    callListeners.add(setCurrent);
    setCurrent(call);
    return () => callListeners.delete(setCurrent);
  }, []);
  return current;
}

export function dismissCall() {
  setCall(null);
}

/** The match page showing now, if any: its id. */
function matchOnScreen() {
  const m = /^#\/match\/(\d+)$/.exec(location.hash);
  return m ? Number(m[1]) : null;
}

/** Whether the page shows tournament `id` (its page or one of its entrants'). */
function showing(id) {
  return shown.has(id) && /^#\/tournament\/\d+/.test(location.hash);
}

/** After a game ends, the page of that tournament's next game of ours may open by itself. */
export function nextGameFollows(current) {
  if (!current) return false;
  const here = matchOnScreen();
  if (here == null || here === current.match) return false;
  const s = matchState(here);
  return !!s && s.tournament === current.tournament && !!(s.outcome || s.aborted);
}

on('match_started', (m) => {
  if (m.tournament == null) return;
  const hash = location.hash || '#/';
  if (hash === '#/' || hash === '#') return; // the lobby opens every match of ours (tables.js)
  if (showing(m.tournament)) {
    location.hash = `#/match/${m.match}`;
    return;
  }
  setCall({ match: m.match, tournament: m.tournament, name: latest.get(m.tournament)?.name || null, at: Date.now() });
});
// A game's page opened, or the game ended: nothing left to offer.
window.addEventListener('hashchange', () => {
  if (call && matchOnScreen() === call.match) setCall(null);
});
for (const type of ['outcome', 'aborted']) {
  on(type, (m) => { if (call && Number(m.match) === call.match) setCall(null); });
}
