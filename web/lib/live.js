// What this page knows about each live match, built from the socket's messages as they
// come, whichever page is showing: a login's resumed seats send joined/view/prompt
// before the match page mounts, and the page then finds them here. A tournament game
// also keeps its tournament's id (from `match_started`), for the way back to it.
import { useEffect, useState } from 'preact/hooks';
import { on, request, send } from './connection.js';

const EVENTS_KEPT = 30;
const matches = new Map(); // match id → state (replaced, never mutated, on each change)
const listeners = new Set();
const watched = new Set(); // match ids spectated, to spectate again after a reconnect
const TOURNAMENT_KEY = 'arbiter.tournamentGames'; // match id → tournament, across reloads
const TOURNAMENT_GAMES_KEPT = 50;

/** The tournament a match of ours is a game of (only `match_started` says; kept for reloads). */
function tournamentOf(id) {
  try {
    return JSON.parse(sessionStorage.getItem(TOURNAMENT_KEY) || '{}')[id] ?? null;
  } catch { return null; }
}

function rememberTournament(id, tournament) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(TOURNAMENT_KEY) || '{}');
    kept[id] = tournament;
    const ids = Object.keys(kept).map(Number).sort((a, b) => b - a).slice(0, TOURNAMENT_GAMES_KEPT);
    sessionStorage.setItem(TOURNAMENT_KEY, JSON.stringify(Object.fromEntries(ids.map((k) => [k, kept[k]]))));
  } catch { /* storage off: this page load knows it anyway */ }
}

function blank(id) {
  return {
    id, ruleset: null, seats: [], seat: null, config: null, rated: false, clock: null,
    view: null, step: null, prompt: null, legal: null, sent: null, rejected: null,
    events: [], ejected: [], outcome: null, headline: null, tournament: tournamentOf(id),
    standIns: {}, // seat → { bot, step }: a house bot plays it since its player went silent
  };
}

function update(id, change) {
  const key = Number(id);
  const before = matches.get(key) || blank(key);
  const after = { ...before, ...(typeof change === 'function' ? change(before) : change) };
  matches.set(key, after);
  for (const fn of listeners) fn(key, after);
}

export function matchState(id) {
  return matches.get(Number(id)) || null;
}

/** The match's state (null until the first message about it), kept current. */
export function useMatch(id) {
  const key = Number(id);
  const [current, setCurrent] = useState(() => matches.get(key) || null);
  useEffect(() => {
    const fn = (changed, state) => { if (changed === key) setCurrent(state); };
    listeners.add(fn);
    setCurrent(matches.get(key) || null);
    return () => listeners.delete(fn);
  }, [key]);
  return current;
}

/** Ask which actions the seat may answer now; the reply lands in `legal`. */
function askLegal(id) {
  request({ type: 'legal', match: id }, 'legal', { accept: (m) => m.match === id })
    .catch(() => { /* the match ended meanwhile; its outcome says so */ });
}

/** Answer the seat's decision; the buttons wait until the next prompt or a refusal. */
export function act(id, action) {
  const state = matches.get(Number(id));
  const step = state?.legal?.step ?? state?.prompt?.step ?? 0;
  update(id, { sent: step, legal: null, rejected: null });
  // Naming the decision: an answer that arrives after it closed is refused, not applied
  // to the next one.
  send({ type: 'act', match: Number(id), step, action });
}

/** Take the seat back from the house bot playing it while we were away. */
export function takeSeat(id) {
  send({ type: 'take_seat', match: Number(id) });
}

export function resign(id) {
  send({ type: 'resign', match: Number(id) });
}

/** Start watching a match; resolves with `spectating` or rejects with the server's error. */
export async function spectate(id) {
  const key = Number(id);
  const reply = await request({ type: 'spectate', match: key }, 'spectating', { accept: (m) => m.match === key });
  watched.add(key);
  return reply;
}

export function unspectate(id) {
  const key = Number(id);
  if (!watched.delete(key)) return;
  request({ type: 'unspectate', match: key }, 'unspectated').catch(() => { /* already over */ });
}

/** Open a table with one house bot and start it; resolves with `match_started`. */
export async function playBot(ruleset, bot) {
  const table = await request({ type: 'create_table', ruleset, seats: 2 }, 'table',
    { accept: (m) => m.ruleset === ruleset });
  return request({ type: 'start_table', table: table.table, fill: bot }, 'match_started');
}

on('match_started', (m) => {
  if (m.tournament != null) rememberTournament(m.match, m.tournament);
  update(m.match, {
    ruleset: m.ruleset, config: m.config, seats: m.players, seat: m.seat, rated: m.rated,
    clock: { deadline_ms: m.deadline_ms, time_bank_ms: m.time_bank_ms }, tournament: m.tournament ?? null,
  });
});
// The first message of every (re)attachment: a pending prompt follows if one is owed.
on('joined', (m) => update(m.match, {
  ruleset: m.ruleset, seats: m.seats, seat: m.seat, config: m.config,
  prompt: null, legal: null, sent: null,
}));
on('spectating', (m) => update(m.match, { ruleset: m.ruleset, seats: m.players }));
on('view', (m) => update(m.match, { view: m.view, step: m.step }));
on('prompt', (m) => {
  update(m.match, {
    prompt: { step: m.step, turn: m.turn, deadline_ms: m.deadline_ms, time_bank_ms: m.time_bank_ms, at: Date.now() },
    legal: null, sent: null,
  });
  askLegal(m.match);
});
on('legal', (m) => update(m.match, (s) => (
  // A reply asked for before our last answer went out is stale.
  s.sent != null && m.step <= s.sent ? {} : { legal: { step: m.step, actions: m.actions || [] } })));
on('rejected', (m) => {
  update(m.match, { rejected: { code: m.code, message: m.message }, sent: null });
  askLegal(m.match);
});
// `act` answers with an error only when it cannot be routed (the match is over, say).
on('error', (m) => {
  if (!m.unclaimed) return;
  for (const [id, s] of matches) {
    if (s.sent != null) update(id, { rejected: { code: m.code, message: m.message }, sent: null });
  }
});
on('events', (m) => update(m.match, (s) => ({ events: [...s.events, ...(m.events || [])].slice(-EVENTS_KEPT) })));
on('ejected', (m) => update(m.match, (s) => ({
  ejected: [...s.ejected, { seat: m.seat, reason: m.reason }],
  ...(m.seat === s.seat ? { prompt: null, legal: null } : {}),
})));
on('stand_in', (m) => update(m.match, (s) => ({
  standIns: { ...s.standIns, [m.seat]: { bot: m.bot, step: m.step } },
  ...(m.seat === s.seat ? { prompt: null, legal: null, sent: null } : {}),
})));
on('seat_taken_back', (m) => update(m.match, (s) => {
  const standIns = { ...s.standIns };
  delete standIns[m.seat];
  return { standIns };
}));
on('outcome', (m) => {
  watched.delete(Number(m.match));
  update(m.match, { outcome: m.outcome, headline: m.headline, prompt: null, legal: null, sent: null });
});
// The match stopped without an outcome (the server could not record it).
on('aborted', (m) => {
  watched.delete(Number(m.match));
  update(m.match, { aborted: m.reason, prompt: null, legal: null, sent: null });
});
// A new connection: nothing is owed on it until the login's resumed seats send their
// prompts again, and it watches nothing yet.
on('welcome', () => {
  for (const [id, s] of matches) {
    if (s.prompt || s.legal || s.sent != null) update(id, { prompt: null, legal: null, sent: null });
  }
  const again = [...watched];
  watched.clear();
  for (const id of again) spectate(id).catch(() => {});
});
