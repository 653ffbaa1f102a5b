// Tables and the rated queue, as the lobby sees them over the socket: the open tables
// (asked for every few seconds while a lobby shows them), the tables this account sits
// at (the server tells their members each change), and the queue it waits in. A match
// that starts from a table or the queue opens its page.
import { useEffect, useState } from 'preact/hooks';
import { connectionState, on, request, whenReady } from './connection.js';

const LIST_EVERY_MS = 3000;

let open = []; // every table waiting for players, as last listed
const mine = new Map(); // table id → table info, for the tables this account sits at
let queued = null; // the `queued` reply while waiting in a queue
const listeners = new Set();

function changed() {
  const snapshot = { open, mine: [...mine.values()], queued };
  for (const fn of listeners) fn(snapshot);
}

/** {open, mine, queued}, kept current; with `list`, the open tables are asked for every few seconds. */
export function useTables({ list = false } = {}) {
  const [state, setState] = useState({ open, mine: [...mine.values()], queued });
  useEffect(() => {
    listeners.add(setState);
    if (!list) return () => listeners.delete(setState);
    let timer = null;
    let live = true;
    const refresh = async () => {
      try {
        await whenReady();
        const reply = await request({ type: 'tables' }, 'tables');
        open = reply.tables || [];
        changed();
      } catch { /* offline: the next tick tries again */ }
      if (live) timer = setTimeout(refresh, document.hidden ? LIST_EVERY_MS * 5 : LIST_EVERY_MS);
    };
    refresh();
    return () => { live = false; clearTimeout(timer); listeners.delete(setState); };
  }, [list]);
  return state;
}

/** Ask and refresh the list at once (after creating, joining, leaving). */
async function relist() {
  try {
    const reply = await request({ type: 'tables' }, 'tables');
    open = reply.tables || [];
    changed();
  } catch { /* shown next tick */ }
}

export async function createTable({ ruleset, seats, config, deadlineMs, timeBankMs, abandonAfter }) {
  const reply = await request({
    type: 'create_table', ruleset, seats, config, deadline_ms: deadlineMs, time_bank_ms: timeBankMs,
    abandon_after: abandonAfter,
  }, 'table', { accept: (m) => m.ruleset === ruleset && m.owner === connectionState().name });
  relist();
  return reply;
}

export async function joinTable(table, seat) {
  const reply = await request({ type: 'join_table', table, seat }, 'table', { accept: (m) => m.table === table });
  relist();
  return reply;
}

export async function addBot(table, bot, seat) {
  return request({ type: 'add_bot', table, bot, seat }, 'table', { accept: (m) => m.table === table });
}

export async function leaveTable(table) {
  await request({ type: 'leave_table', table }, 'left_table', { accept: (m) => m.table === table });
  relist();
}

/** Start the table's match, house bot `fill` in every empty seat; resolves with `match_started`. */
export async function startTable(table, fill) {
  return request({ type: 'start_table', table, fill: fill || undefined }, 'match_started');
}

/** Wait in `ruleset`'s rated queue; resolves with `queued`. */
export async function joinQueue(ruleset) {
  queued = await request({ type: 'queue', ruleset }, 'queued', { accept: (m) => m.ruleset === ruleset });
  changed();
  return queued;
}

export async function leaveQueue() {
  await request({ type: 'leave_queue' }, 'left_queue');
  queued = null;
  changed();
}

on('table', (m) => { mine.set(m.table, m); changed(); });
on('left_table', (m) => { mine.delete(m.table); changed(); });
on('table_closed', (m) => { mine.delete(m.table); changed(); });
on('table_started', (m) => { mine.delete(m.table); changed(); relist(); });
on('match_started', (m) => {
  if (queued && queued.ruleset === m.ruleset) queued = null; // the queue paired us
  changed();
  // Somebody else pressed Start, or the queue found opponents: take the seat at once.
  const hash = location.hash || '#/';
  if (hash === '#/' || hash === '#') location.hash = `#/match/${m.match}`;
});
// A new connection sits at no table and waits in no queue (the server forgot them).
on('welcome', () => {
  mine.clear();
  queued = null;
  changed();
});

