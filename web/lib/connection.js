// The page's one WebSocket to the server's native protocol (docs/protocol.md): a bus
// that hands each message to the subscribers of its type, `send`, `request`, and the
// account the connection is logged in as. Logging in gives a session token, kept in
// this browser's storage (never the password): a reload or a dropped socket logs in
// again with it (`resume`), so neither a reload nor a closed laptop lid costs a seat.
import { useEffect, useState } from 'preact/hooks';

const PING_MS = 20000; // the server closes a WebSocket silent for 60 s
const REQUEST_MS = 20000;
const RETRY_MS = [500, 1000, 2000, 5000, 10000]; // each try waits up to this, jittered
const NAME_KEY = 'arbiter.account'; // the name last used, to fill in the form
const SESSION_KEY = 'arbiter.session'; // the session token; the password is never kept

const subscribers = new Map(); // type → Set<fn>; '*' gets every message
const pending = []; // requests sent and not yet answered, oldest first
let queue = []; // messages held until the connection is ready
let socket = null;
let ready = false; // welcomed, and logged in again if we had been
let retries = 0;
let restartingFor = 0; // ms the server asked us to wait (`server_restarting`), once
let state = { status: 'connecting', name: null, bot: false, resumed: [] };
const stateListeners = new Set();

function setState(change) {
  state = { ...state, ...change };
  for (const fn of stateListeners) fn(state);
}

/** Call `fn(message)` for every message of `type` ('*' for all); returns the unsubscribe. */
export function on(type, fn) {
  if (!subscribers.has(type)) subscribers.set(type, new Set());
  subscribers.get(type).add(fn);
  return () => subscribers.get(type).delete(fn);
}

function emit(message) {
  for (const key of [message.type, '*']) {
    for (const fn of [...(subscribers.get(key) || [])]) {
      try { fn(message); } catch (e) { console.error(e); }
    }
  }
}

function transmit(message) {
  socket.send(JSON.stringify(message));
}

/** Send now if the connection is ready, else as soon as it is (after a reconnect too). */
export function send(message) {
  if (ready) transmit(message);
  else queue.push({ message });
}

/**
 * Send `message` and resolve with the next `replyType` message (optionally one that
 * `accept` likes), or reject on `error`. The server answers a connection's requests in
 * order, so an error belongs to the oldest request still waiting.
 */
export function request(message, replyType, { accept = () => true, timeout = REQUEST_MS, now = false } = {}) {
  return new Promise((resolve, reject) => {
    const entry = { replyType, accept, resolve, reject, timer: null };
    entry.timer = setTimeout(() => {
      drop(entry);
      reject(new Error('The server did not answer in time.'));
    }, timeout);
    const go = () => { pending.push(entry); transmit(message); };
    if (ready || (now && socket?.readyState === WebSocket.OPEN)) go();
    else queue.push({ message, entry, go });
  });
}

function drop(entry) {
  clearTimeout(entry.timer);
  const i = pending.indexOf(entry);
  if (i >= 0) pending.splice(i, 1);
  queue = queue.filter((q) => q.entry !== entry);
}

/** Settle the request this message answers; true when it was one. */
function settle(message) {
  if (message.type === 'error') {
    const entry = pending[0];
    if (!entry) return false;
    drop(entry);
    const error = new Error(message.message || message.code);
    error.code = message.code;
    entry.reject(error);
    return true;
  }
  const entry = pending.find((p) => p.replyType === message.type && p.accept(message));
  if (!entry) return false;
  drop(entry);
  entry.resolve(message);
  return true;
}

function becomeReady() {
  ready = true;
  retries = 0;
  if (state.restarting) setState({ restarting: false });
  const held = queue;
  queue = [];
  for (const q of held) {
    if (q.go) q.go();
    else transmit(q.message);
  }
  setState({ status: 'open' });
}

function storage(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* storage off (private mode): this page load only */ }
  return null;
}

let memorySession = null; // where storage is off, the session lasts this page load

/** The session token this browser is signed in with (for the API's Bearer), or null. */
export function sessionToken() {
  return storage(SESSION_KEY) || memorySession;
}

function keepSession(token) {
  memorySession = token;
  storage(SESSION_KEY, token);
}

async function onWelcome() {
  const session = sessionToken();
  if (!session) {
    becomeReady();
    return;
  }
  try {
    const reply = await request({ type: 'resume', session }, 'logged_in', { now: true });
    setState({ name: reply.name, bot: !!reply.bot, resumed: reply.resumed || [] });
  } catch (e) {
    // Lost again mid-login: the next reconnect tries again.
    if (!e.code) return;
    // Expired or logged out elsewhere: carry on as a guest rather than retrying forever.
    keepSession(null);
    setState({ name: null, bot: false, resumed: [], notice: `Please log in again: ${e.message}` });
  }
  becomeReady();
}

function connect() {
  const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
  const ws = new WebSocket(url);
  socket = ws;
  ready = false;
  setState({ status: 'connecting' });
  ws.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    if (message.type === 'welcome') onWelcome();
    // The server is stopping (an upgrade): it closes the socket next; come back after
    // its hint. Every game goes on from where it was.
    if (message.type === 'server_restarting') {
      restartingFor = Number(message.retry_after_ms) || 0;
      setState({ status: 'offline', restarting: true });
    }
    // An error nobody waits for (a refused `act`, say) is marked for the pages.
    const answered = settle(message);
    emit(message.type === 'error' && !answered ? { ...message, unclaimed: true } : message);
  };
  ws.onclose = () => {
    if (socket !== ws) return; // replaced on purpose (log out)
    ready = false;
    for (const entry of [...pending]) {
      drop(entry);
      entry.reject(new Error('The connection to the server was lost.'));
    }
    setState({ status: 'offline' });
    // Jittered (a half to the whole step), so that every page of a restarted server does
    // not knock at the same moment; at least what the server asked for.
    const step = RETRY_MS[Math.min(retries, RETRY_MS.length - 1)];
    const delay = Math.max(restartingFor, step / 2 + Math.random() * (step / 2));
    restartingFor = 0;
    retries += 1;
    setTimeout(connect, delay);
  };
}

/** Log in (or register, which also logs in) and keep the session for reloads. */
export async function logIn(name, password, { register = false } = {}) {
  const reply = register
    ? await request({ type: 'register', name, password }, 'registered')
    : await request({ type: 'login', name, password }, 'logged_in');
  keepSession(reply.session || null);
  storage(NAME_KEY, reply.name);
  setState({ name: reply.name, bot: !!reply.bot, resumed: reply.resumed || [], notice: null });
  return reply;
}

/**
 * End the session on the server (its token stops working everywhere), forget it here,
 * and start over as a guest on a fresh connection.
 */
export async function logOut() {
  keepSession(null);
  const old = socket;
  old.onclose = null; // the server closes it after `logged_out`; a fresh one follows
  if (ready) {
    // A lost answer changes nothing here: the token is forgotten either way.
    await request({ type: 'logout' }, 'logged_out', { timeout: 3000 }).catch(() => {});
  }
  setState({ name: null, bot: false, resumed: [], notice: null });
  for (const entry of [...pending]) {
    drop(entry);
    entry.reject(new Error('Logged out.'));
  }
  connect();
  old.close();
}

/** The name last used on this browser, to fill in the form. */
export function rememberedName() {
  return storage(NAME_KEY) || '';
}

export function connectionState() {
  return state;
}

/** {status: 'connecting'|'open'|'offline', restarting (the server said it is restarting), name (null for a guest), bot (the account is a bot's), resumed, notice}. */
export function useConnection() {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    stateListeners.add(setCurrent);
    setCurrent(state);
    return () => stateListeners.delete(setCurrent);
  }, []);
  return current;
}

/** Resolves once the connection is ready (welcomed and logged in again if it was). */
export function whenReady() {
  if (ready) return Promise.resolve(state);
  return new Promise((resolve) => {
    const check = (s) => {
      if (s.status === 'open') { stateListeners.delete(check); resolve(s); }
    };
    stateListeners.add(check);
  });
}

setInterval(() => { if (ready) transmit({ type: 'ping' }); }, PING_MS);
connect();
