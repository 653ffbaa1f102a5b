// A small client for Arbiter's native protocol (docs/protocol.md): Node >= 18, no packages.
//
// The protocol in three lines: the client sends JSON objects, one per line (TCP) or one
// per WebSocket text message, each with a "type"; the server answers requests
// ("register" -> "registered", "legal" -> "legal", ...) or says "error", and pushes match
// messages ("view", "prompt", "events", "rejected", "ejected", "outcome") as they happen.
//
// A bot is one function (it may also be async):
//
//   function decide(view, legal, prompt) { return legal[0]; }
//
// - view:   the ruleset's view of the game for your seat (the last "view" message's "view");
// - legal:  actions your seat may send now, as the prompt lists them (the kit asks for
//           "legal_in_prompt" with {"type": "options"}) or as {"type": "legal"} answers
//           (for qgame and spacegoo a sample: other well-formed actions are accepted too);
// - prompt: the "prompt" message plus what the kit knows: ruleset, seat, players, config,
//           rejected (the refusal of your previous answer to this decision, or null),
//           timeLeft (ms until the deadline, bank included) and budget (ms you may think
//           without drawing on the time bank).
//
//   const client = new Client({ host: '127.0.0.1', port: 7000, name: 'alice', password: 'pw' });
//   await client.connect();                          // register, or log in if the name is taken
//   const match = await client.createTable('tae', { seats: 2, houseBot: 'random' }); // or client.queue('tae')
//   const result = await client.play(match, decide); // answers every prompt until the outcome
//   console.log(result.line());
//
// A lost connection (or the server's "server_restarting") is resumed by itself: the kit
// connects again with capped exponential backoff and full jitter (at least the server's
// retry_after_ms; for at most options.reconnectForMs, default 120 s), logs in with its
// session and gets its seats back. Every "act" names the prompt's "step", so an answer
// to a decision already closed is refused ("stale_answer") instead of landing on a later one.

'use strict';

const { TinyWebSocket } = require('./websocket');
const net = require('net');
const http = require('http');

const PROTOCOL = 1;

const REPLY_TIMEOUT_MS = 90000; // a request's wait for its reply (the store may stall ~60 s)
const CONNECT_TIMEOUT_MS = 10000;
const SILENCE_MS = 30000; // silence before a ping; as long again without an answer: lost
// Server errors during a reconnection that mean "try again later", not "give up".
const RETRY_CODES = ['shutting_down', 'store_unavailable', 'node_unreachable', 'too_many_connections', 'internal'];
// An answer the server refused because its decision is closed: not retried.
const STALE_CODES = ['stale_answer', 'bad_step'];

// Milliseconds to wait before reconnection attempt `attempt` + 1 (0 = the first retry):
// capped exponential backoff with full jitter, random in [0, min(cap, base * 2^attempt)].
function backoffDelay(attempt, random = Math.random, baseMs = 250, capMs = 5000) {
  return random() * Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
}

class ArbiterError extends Error {
  constructor(reply) {
    super(`${reply.code}: ${reply.message}`);
    this.code = reply.code;
    this.reply = reply;
  }
}

// The connection closed or failed, or the server said nothing in time. retryAfterMs:
// how long to wait before connecting again (the server said it is restarting).
class ConnectionLost extends Error {
  constructor(message, retryAfterMs = 0) {
    super(message);
    this.retryAfterMs = retryAfterMs;
  }
}

// Waited too long for something other players do (a match in the queue, a tournament's game).
class WaitTimeout extends Error {}

// Messages arriving on a connection, handed out one by one by recv().
class Inbox {
  constructor() {
    this.messages = [];
    this.waiters = [];
    this.closed = null;
    this.retryAfterMs = 0; // from the server's server_restarting
  }
  push(message) {
    if (this.closed) return;
    if (!message || typeof message !== 'object') {
      this.close(`the server sent ${JSON.stringify(message)}, not an object`);
      this.end();
      return;
    }
    if (message.type === 'server_restarting') {
      // The server is stopping and closes every connection: come back later.
      this.retryAfterMs = message.retry_after_ms || 0;
      this.close(`the server is restarting (back in about ${(this.retryAfterMs / 1000).toFixed(1)} s)`);
      this.end();
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(message);
    else this.messages.push(message);
  }
  close(reason) {
    if (this.closed) return;
    this.closed = reason || 'the connection closed';
    for (const waiter of this.waiters.splice(0)) waiter.reject(new ConnectionLost(this.closed, this.retryAfterMs));
  }
  // What arrived but was not read yet (an outcome before the end, say).
  drain() {
    return this.messages.splice(0);
  }
  // The next message, or null when nothing came within timeoutMs.
  recv(timeoutMs) {
    if (this.messages.length) return Promise.resolve(this.messages.shift());
    if (this.closed) return Promise.reject(new ConnectionLost(this.closed, this.retryAfterMs));
    return new Promise((resolve, reject) => {
      const waiter = { resolve, reject };
      this.waiters.push(waiter);
      if (timeoutMs != null) {
        const timer = setTimeout(() => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          resolve(null);
        }, timeoutMs);
        waiter.resolve = (m) => { clearTimeout(timer); resolve(m); };
        waiter.reject = (e) => { clearTimeout(timer); reject(e); };
      }
    });
  }
}

// One TCP connection: JSON objects, one per line.
class TcpConnection extends Inbox {
  static open(host, port) {
    return new Promise((resolve, reject) => {
      const conn = new TcpConnection();
      const timer = setTimeout(() => {
        const e = new ConnectionLost(`${host}:${port}: no connection within ${CONNECT_TIMEOUT_MS / 1000} s`);
        conn.close(e.message);
        socket.destroy();
        reject(e);
      }, CONNECT_TIMEOUT_MS);
      const socket = net.createConnection({ host, port }, () => { clearTimeout(timer); resolve(conn); });
      conn.socket = socket;
      let buffer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        buffer += chunk;
        let newline;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          if (!line) continue;
          let message;
          try {
            message = JSON.parse(line);
          } catch (e) {
            conn.close(`the server sent bad JSON: ${e.message}`);
            socket.destroy();
            return;
          }
          conn.push(message);
        }
      });
      socket.on('error', (e) => { clearTimeout(timer); conn.close(e.message); reject(e); });
      socket.on('close', () => { clearTimeout(timer); conn.close('the server closed the connection'); });
    });
  }
  send(message) {
    if (this.closed) throw new ConnectionLost(this.closed);
    this.socket.write(JSON.stringify(message) + '\n');
  }
  drop() { this.socket.destroy(); }
  end() { this.socket.end(); }
}

// One WebSocket connection (ws://HOST:PORT/ws): one JSON object per text message.
// Uses the global WebSocket where there is one (Node >= 22, browsers), else the kit's
// small client (websocket.js), which has the same interface.
class WsConnection extends Inbox {
  static open(url) {
    return new Promise((resolve, reject) => {
      const conn = new WsConnection();
      const ws = typeof WebSocket === 'undefined' ? new TinyWebSocket(url) : new WebSocket(url);
      conn.ws = ws;
      const timer = setTimeout(() => {
        const e = new ConnectionLost(`${url}: no connection within ${CONNECT_TIMEOUT_MS / 1000} s`);
        conn.close(e.message);
        try { ws.close(); } catch (_) { /* not open yet */ }
        reject(e);
      }, CONNECT_TIMEOUT_MS);
      ws.onopen = () => { clearTimeout(timer); resolve(conn); };
      ws.onmessage = (event) => {
        let message;
        try {
          message = JSON.parse(event.data);
        } catch (e) {
          conn.close(`the server sent bad JSON: ${e.message}`);
          conn.end();
          return;
        }
        conn.push(message);
      };
      ws.onerror = (event) => {
        clearTimeout(timer);
        const e = new ConnectionLost(event.message || `websocket error (${url})`);
        conn.close(e.message);
        reject(e);
      };
      ws.onclose = () => { clearTimeout(timer); conn.close('the server closed the connection'); reject(new ConnectionLost(`${url}: closed`)); };
    });
  }
  send(message) {
    if (this.closed) throw new ConnectionLost(this.closed);
    this.ws.send(JSON.stringify(message));
  }
  drop() { this.ws.close(); this.close('dropped'); }
  end() { try { this.ws.close(); } catch (_) { /* closed already */ } }
}

// What the kit knows about one match you play.
class Match {
  constructor(id) {
    this.id = id;
    this.ruleset = null;
    this.seat = null;
    this.players = [];
    this.config = null;
    this.view = null;
    this.step = 0;
    this.pending = null; // the prompt we owe an answer to
    this.answered = null; // the prompt we answered last (re-armed when refused)
    this.rejected = null; // the last "rejected" message for the current decision
    this.tries = 0; // answers refused for the current decision
    this.ejected = {}; // seat -> reason
    this.outcome = null;
    this.headline = null;
    this.aborted = null;
    this.done = false;
    this.started = Date.now();
    this.decisions = 0;
    this.tournament = null; // the tournament's id, for its games
  }
}

// How a match ended for your seat.
class Result {
  constructor(match) {
    this.match = match;
    this.outcome = match.outcome || {};
    this.seconds = (Date.now() - match.started) / 1000;
    const ejected = this.outcome.ejected || [];
    this.ejected = match.ejected[match.seat] || ejected[match.seat] || null;
    this.ok = match.outcome != null && !this.ejected && !match.aborted;
  }
  line() {
    const m = this.match;
    if (m.aborted) return `match ${m.id} ${m.ruleset}: aborted: ${m.aborted}`;
    if (m.outcome == null) return `match ${m.id} ${m.ruleset}: no outcome (connection lost)`;
    const ranks = this.outcome.ranks || [];
    let text = `match ${m.id} ${m.ruleset} seat ${m.seat}: rank ${ranks[m.seat]} of ${ranks.length}, ` +
      `scores ${JSON.stringify(this.outcome.scores)}, ${m.decisions} decisions, ${this.seconds.toFixed(1)} s: ` +
      `${m.headline || this.outcome.summary}`;
    if (this.ejected) text += ` -- EJECTED: ${this.ejected}`;
    return text;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A logged-in connection to an Arbiter server that plays matches.
class Client {
  // options: host, port (TCP), or transport: 'ws' with url (ws://HOST:PORT/ws);
  // name, password; http (HOST:PORT of the HTTP API, for outcomes missed while away);
  // reconnectForMs (how long to keep trying to reconnect, default 120 000).
  constructor(options) {
    this.options = Object.assign({ host: '127.0.0.1', port: 7000, transport: 'tcp', reconnectForMs: 120000 }, options);
    this.log = this.options.log || ((text) => process.stderr.write(text + '\n'));
    this.verbose = !!this.options.verbose;
    this.conn = null;
    this.session = null;
    this.matches = new Map();
    this.generation = 0; // bumped on every reconnection
    this.dropAfter = null; // testing: drop the connection after this many answers
    this.useBank = !!this.options.useBank; // let decide run into the time bank before the fallback
    this.lastHeard = Date.now(); // when the server last said anything
    this.pinged = null; // when we pinged a silent server, until it answers
    this.entered = new Set(); // tournaments joined: joined again after a reconnection
    this.tournamentsOver = new Set();
    this.claimed = new Set(); // matches handed out by queue/createTable/tournamentGame/play
  }

  // ---- connection and login ------------------------------------------------------

  // Connect and log in: resume the session, else register, else log in.
  async connect() {
    const o = this.options;
    if (this.conn) this.conn.end();
    this.conn = null;
    this.conn = o.transport === 'ws' ? await WsConnection.open(o.url) : await TcpConnection.open(o.host, o.port);
    this.lastHeard = Date.now();
    this.pinged = null;
    const welcome = await this.conn.recv(10000);
    if (!welcome || welcome.type !== 'welcome') throw new ConnectionLost(`expected welcome within 10 s, got ${JSON.stringify(welcome)}`);
    if (welcome.protocol !== PROTOCOL) this.log(`warning: server speaks protocol ${welcome.protocol}, this kit ${PROTOCOL}`);
    await this.askLegalInPrompt();
    if (this.session) {
      try {
        return await this.login({ type: 'resume', session: this.session });
      } catch (e) {
        if (e.code !== 'bad_session') throw e;
      }
    }
    try {
      // bot: a program plays this account (a tournament may take only bots, or only people).
      return await this.login({ type: 'register', name: o.name, password: o.password, bot: true });
    } catch (e) {
      if (e.code !== 'name_taken') throw e;
    }
    return this.login({ type: 'login', name: o.name, password: o.password, bot: true });
  }

  // Ask for the legal actions in every prompt on this connection (per connection: again
  // after every reconnection; before logging in, so a resumed seat's prompt carries them
  // too). An older server says "error": the kit then asks "legal" before each decision.
  async askLegalInPrompt() {
    try {
      const reply = await this.rawRequest({ type: 'options', legal_in_prompt: true }, 'options');
      if (!reply.legal_in_prompt) this.log('the server does not put legal actions in prompts');
    } catch (e) {
      if (!(e instanceof ArbiterError)) throw e;
      this.log(`options refused (an older server?): ${e.message}`);
    }
  }

  async login(message) {
    let waited = 0;
    for (;;) {
      try {
        const reply = await this.rawRequest(message, 'registered', 'logged_in');
        this.session = reply.session || this.session;
        return reply;
      } catch (e) {
        if (e.code !== 'login_throttled' || waited >= this.options.reconnectForMs) throw e;
        const pause = e.reply.retry_after_ms || 1000;
        this.log(`login throttled: trying again in ${(pause / 1000).toFixed(1)} s`);
        await sleep(pause);
        waited += pause;
      }
    }
  }

  // Send on the current connection and wait (at most 30 s) for the reply (no reconnecting).
  async rawRequest(message, ...replyTypes) {
    this.sendNow(message);
    const end = Date.now() + 30000;
    for (;;) {
      const reply = await this.conn.recv(Math.max(0, end - Date.now()));
      if (reply == null) throw new ConnectionLost(`no reply to ${message.type} within 30 s`);
      this.handle(reply);
      if (replyTypes.includes(reply.type)) return reply;
      if (reply.type === 'error') throw new ArbiterError(reply);
    }
  }

  // After a lost connection (`lost`, the ConnectionLost, says why): connect again and
  // resume the session; the server re-attaches every running seat (joined, view and the
  // pending prompt follow) and the kit enters its tournaments again (the server says
  // already_entered, and this connection watches them again). Waits at least what the
  // server asked (server_restarting), then tries with capped exponential backoff and full
  // jitter (backoffDelay) while the server is down, for at most reconnectForMs; then
  // throws ConnectionLost.
  async reconnect(lost) {
    const budget = this.options.reconnectForMs;
    const old = this.conn;
    this.conn = null;
    let wait = (lost && lost.retryAfterMs) || 0;
    if (old) {
      for (const message of old.drain()) this.handle(message); // an outcome before the end, say
      wait = Math.max(wait, old.retryAfterMs || 0);
      old.end();
    }
    const started = Date.now();
    wait = Math.min(wait, budget);
    if (wait) this.log(`the server is restarting: reconnecting in ${(wait / 1000).toFixed(1)} s`);
    let attempt = 0;
    let notResumedSince = null;
    let reply;
    let resumed;
    for (;;) {
      await sleep(wait);
      for (const m of this.matches.values()) {
        m.pending = m.answered = null; // a decision still owed is prompted again
      }
      let error;
      try {
        reply = await this.connect();
        await this.watchTournamentsAgain();
        resumed = new Set(reply.resumed || []);
        const missing = await this.runningElsewhere(resumed);
        if (!missing.length) break;
        // Running (says the HTTP API) but not given back: a server still restoring its
        // matches. Log in again shortly, for up to 30 s.
        notResumedSince = notResumedSince || Date.now();
        if (Date.now() - notResumedSince > 30000) {
          this.log(`matches [${missing.join(', ')}] still running but not resumed: giving them up`);
          break;
        }
        error = new ConnectionLost(`matches [${missing.join(', ')}] are running but were not resumed`);
      } catch (e) {
        if (e instanceof ArbiterError && !RETRY_CODES.includes(e.code)) throw e;
        error = e;
      }
      if (this.conn) this.conn.end();
      this.conn = null;
      attempt++;
      wait = Math.max(backoffDelay(attempt - 1), error.retryAfterMs || 0);
      if (Date.now() - started + wait > budget) {
        const where = this.options.transport === 'ws' ? this.options.url : `${this.options.host}:${this.options.port}`;
        throw new ConnectionLost(`could not reconnect to ${where} within ${budget / 1000} s (${attempt} attempts): ${error.message}`);
      }
      this.log(`reconnect attempt ${attempt} failed: ${error.message}; next in ${(wait / 1000).toFixed(1)} s`);
    }
    this.generation++;
    this.log(`reconnected; resumed matches [${[...resumed].join(', ')}]`);
    for (const m of this.matches.values()) {
      if (!m.done && !resumed.has(m.id)) await this.outcomeOverHttp(m);
    }
    return reply;
  }

  // A new connection hears nothing of a tournament until it joins again: entered before,
  // the server answers already_entered and this connection watches it.
  async watchTournamentsAgain() {
    for (const tournament of this.entered) {
      if (this.tournamentsOver.has(tournament)) continue;
      try {
        await this.rawRequest({ type: 'join_tournament', tournament }, 'tournament_joined');
      } catch (e) {
        if (!(e instanceof ArbiterError)) throw e;
        if (e.code === 'already_entered') continue;
        if (e.code === 'tournament_over' || e.code === 'no_such_tournament') this.tournamentsOver.add(tournament);
        this.log(`tournament ${tournament}: ${e.message}`);
      }
    }
  }

  // Matches of ours that the HTTP API says run, but that this login did not resume (only
  // with options.http; a seat known to be ejected does not count).
  async runningElsewhere(resumed) {
    if (!this.options.http) return [];
    const missing = [];
    for (const m of this.matches.values()) {
      if (m.done || resumed.has(m.id) || (m.seat != null && m.ejected[m.seat])) continue;
      const summary = await this.summaryOverHttp(m.id);
      if (summary && summary.status === 'running') missing.push(m.id);
    }
    return missing;
  }

  async summaryOverHttp(matchId) {
    try {
      return await getJson(`http://${this.options.http}/api/matches/${matchId}`);
    } catch (e) {
      this.log(`could not read match ${matchId} over HTTP: ${e.message}`);
      return null;
    }
  }

  // A match that ended while we were away: its outcome from the HTTP API.
  async outcomeOverHttp(m) {
    const summary = this.options.http ? await this.summaryOverHttp(m.id) : null;
    if (summary && summary.outcome) {
      m.outcome = summary.outcome;
      m.headline = `(outcome read over HTTP) ${m.outcome.summary}`;
    } else if (summary && summary.status === 'aborted') {
      m.aborted = 'aborted (read over HTTP)';
    }
    m.pending = null;
    m.done = true;
  }

  // ---- sending and receiving -----------------------------------------------------

  sendNow(message) {
    if (this.verbose) {
      const shown = Object.assign({}, message);
      for (const secret of ['password', 'session']) if (secret in shown) shown[secret] = '***';
      this.log('-> ' + JSON.stringify(shown).slice(0, 300));
    }
    if (!this.conn) throw new ConnectionLost('not connected');
    this.conn.send(message);
  }

  // Send, reconnecting (and sending again) if the connection is gone.
  async send(message) {
    try {
      this.sendNow(message);
    } catch (e) {
      if (!(e instanceof ConnectionLost)) throw e;
      await this.reconnect(e);
      this.sendNow(message);
    }
  }

  // Read one message (reconnecting if needed), update the matches, return it; null when
  // nothing came within timeoutMs (at most 30 s) or after reconnecting. A server silent
  // for 30 s is pinged; silent 30 s more, the connection counts as lost.
  async pump(timeoutMs) {
    const wait = timeoutMs == null ? SILENCE_MS : Math.max(0, Math.min(timeoutMs, SILENCE_MS));
    let message;
    try {
      if (!this.conn) throw new ConnectionLost('not connected');
      message = await this.conn.recv(wait);
      if (message == null) this.checkAlive();
    } catch (e) {
      if (!(e instanceof ConnectionLost)) throw e;
      this.log(`connection lost: ${e.message}`);
      await this.reconnect(e);
      return null;
    }
    if (message != null) this.handle(message);
    return message;
  }

  checkAlive() {
    const now = Date.now();
    if (this.pinged != null) {
      if (now - this.pinged >= SILENCE_MS) throw new ConnectionLost(`the server did not answer a ping within ${SILENCE_MS / 1000} s`);
    } else if (now - this.lastHeard >= SILENCE_MS) {
      this.sendNow({ type: 'ping' });
      this.pinged = now;
    }
  }

  // Send a request and return its reply; match messages arriving meanwhile are
  // handled. Throws ArbiterError on an "error" reply, ConnectionLost when no reply comes
  // within 90 s.
  async request(message, ...replyTypes) {
    for (;;) {
      const generation = this.generation;
      await this.send(message);
      const asked = Date.now();
      while (generation === this.generation) {
        const left = asked + REPLY_TIMEOUT_MS - Date.now();
        if (left <= 0) throw new ConnectionLost(`no reply to ${message.type} within ${REPLY_TIMEOUT_MS / 1000} s`);
        const reply = await this.pump(left);
        if (reply == null) continue;
        if (replyTypes.includes(reply.type)) return reply;
        if (reply.type === 'error') throw new ArbiterError(reply);
      }
      // Reconnected before the reply came: ask again.
    }
  }

  // Keep each match's state up to date with what the server pushes.
  handle(message) {
    if (this.verbose) this.log('<- ' + JSON.stringify(message).slice(0, 300));
    this.lastHeard = Date.now();
    this.pinged = null;
    if (message.type === 'tournament_ended' || (message.type === 'tournament' && ['finished', 'cancelled'].includes(message.status))) {
      this.tournamentsOver.add(message.tournament);
    }
    const id = message.match;
    if (id == null) return;
    if (message.type === 'joined' && message.seat == null) return; // a spectator's
    let m = this.matches.get(id);
    if (!m) this.matches.set(id, (m = new Match(id)));
    switch (message.type) {
      case 'match_started':
      case 'joined':
        m.ruleset = message.ruleset || m.ruleset;
        m.seat = message.seat;
        m.players = message.players || message.seats || m.players;
        m.config = message.config || m.config;
        if (message.tournament != null) m.tournament = message.tournament;
        break;
      case 'view':
        m.view = message.view;
        m.step = message.step;
        break;
      case 'prompt':
        message.receivedAt = Date.now();
        Object.assign(m, { pending: message, answered: null, rejected: null, tries: 0 });
        break;
      case 'rejected':
        if (STALE_CODES.includes(message.code)) {
          // An answer to a decision already closed (late, or sent around a lost
          // connection): not applied, and not to be retried. The decision owed now has
          // its own prompt (already here, or on its way).
          this.log(`match ${id}: answer refused as ${message.code}, waiting for the current prompt: ${message.message}`);
          break;
        }
        // Nothing changed: the same decision is owed, on the same clock; answer again.
        m.rejected = message;
        m.tries++;
        if (m.answered) {
          m.pending = m.answered;
          m.answered = null;
        }
        break;
      case 'ejected':
        m.ejected[message.seat] = message.reason;
        if (message.seat === m.seat) m.pending = null;
        break;
      case 'outcome':
        Object.assign(m, { outcome: message.outcome, headline: message.headline, pending: null, done: true });
        break;
      case 'aborted':
        Object.assign(m, { aborted: message.reason || 'aborted', pending: null, done: true });
        break;
      default:
    }
  }

  // ---- lobby ---------------------------------------------------------------------

  async rulesets() {
    return (await this.request({ type: 'rulesets' }, 'rulesets')).rulesets;
  }

  // A running match with our seat that nobody plays yet (a game that started while we
  // were away, or a tournament's next game): its id, now claimed, or null.
  unclaimedMatch() {
    const ids = [...this.matches.keys()].sort((a, b) => a - b);
    for (const id of ids) {
      const m = this.matches.get(id);
      if (!m.done && m.seat != null && !this.claimed.has(id)) {
        this.claimed.add(id);
        return id;
      }
    }
    return null;
  }

  // Wait in the matchmaking queue; resolves to the match id once paired (WaitTimeout
  // after timeoutMs, default 600 000; null: no limit).
  async queue(ruleset, { config, seats, timeoutMs = 600000 } = {}) {
    const message = { type: 'queue', ruleset };
    if (config != null) message.config = config;
    if (seats != null) message.seats = seats;
    const join = async () => {
      try {
        await this.request(message, 'queued');
      } catch (e) {
        if (e.code !== 'already_queued') throw e;
      }
    };
    await join();
    const started = Date.now();
    for (;;) {
      const generation = this.generation;
      const m = await this.pump(30000);
      if (m && m.type === 'match_started') {
        this.claimed.add(m.match);
        return m.match;
      }
      if (m && m.type === 'error') throw new ArbiterError(m);
      if (generation !== this.generation) {
        const found = this.unclaimedMatch(); // it started while we were away
        if (found != null) return found;
        await join(); // the queue forgets a closed connection
      }
      if (timeoutMs != null && Date.now() - started > timeoutMs) {
        try { this.sendNow({ type: 'leave_queue' }); } catch (_) { /* gone anyway */ }
        throw new WaitTimeout(`no match in the ${ruleset} queue within ${timeoutMs / 1000} s`);
      }
    }
  }

  // Open a table, fill the other seats with a house bot and start it; resolves to the
  // match id (you sit in seat 0).
  async createTable(ruleset, { seats = 2, houseBot = 'random', config, deadlineMs, timeBankMs } = {}) {
    const message = { type: 'create_table', ruleset, seats };
    if (config != null) message.config = config;
    if (deadlineMs != null) message.deadline_ms = deadlineMs;
    if (timeBankMs != null) message.time_bank_ms = timeBankMs;
    const table = (await this.request(message, 'table')).table;
    const generation = this.generation;
    let started;
    try {
      started = await this.request({ type: 'start_table', table, fill: houseBot }, 'match_started');
    } catch (e) {
      // Lost around the start: the match may have started, and come back on login.
      const found = e instanceof ArbiterError && generation !== this.generation ? this.unclaimedMatch() : null;
      if (found == null) throw e;
      return found;
    }
    this.claimed.add(started.match);
    return started.match;
  }

  // Enter a tournament. Entered before (a bot back after a restart), the server says
  // already_entered and this connection watches it again: fine too.
  async joinTournament(tournament) {
    this.entered.add(tournament);
    try {
      await this.request({ type: 'join_tournament', tournament }, 'tournament_joined');
    } catch (e) {
      if (e.code === 'tournament_over') this.tournamentsOver.add(tournament);
      else if (e.code !== 'already_entered') {
        this.entered.delete(tournament);
        throw e;
      }
    }
  }

  // The next game the tournament pairs you in (a match id, for play), or null once the
  // tournament is over. Joins it first; after a reconnection the kit joins again by
  // itself. WaitTimeout when no game comes within timeoutMs (null: no limit).
  async tournamentGame(tournament, { timeoutMs = null } = {}) {
    if (!this.entered.has(tournament)) await this.joinTournament(tournament);
    const started = Date.now();
    for (;;) {
      const found = this.unclaimedMatch();
      if (found != null) return found;
      if (this.tournamentsOver.has(tournament)) return null;
      if (timeoutMs != null && Date.now() - started > timeoutMs) {
        throw new WaitTimeout(`no game from tournament ${tournament} within ${timeoutMs / 1000} s`);
      }
      await this.pump(30000);
    }
  }

  // ---- playing -------------------------------------------------------------------

  // The actions your seat may answer now (empty when it owes nothing).
  legal(matchId) {
    return this.request({ type: 'legal', match: matchId }, 'legal');
  }

  // Answer a prompt; step, the prompt's, lets the server refuse an answer to a decision
  // already closed (rejected, stale_answer) instead of applying it to a later one. Not
  // sent again after a lost connection: the resumed seat is prompted again if the answer
  // never arrived (a second answer could cost the seat).
  async act(matchId, action, step) {
    const message = { type: 'act', match: matchId, action };
    if (step != null) message.step = step;
    try {
      this.sendNow(message);
    } catch (e) {
      if (!(e instanceof ConnectionLost)) throw e;
      this.log(`connection lost while answering: ${e.message}`);
      await this.reconnect(e);
    }
  }

  // Answer every prompt of the match with `decide` until it ends; resolves to a Result.
  async play(matchId, decide, fallback) {
    if (!this.matches.has(matchId)) this.matches.set(matchId, new Match(matchId));
    this.claimed.add(matchId);
    const m = this.matches.get(matchId);
    while (!m.done) {
      if (m.pending == null) await this.pump(30000);
      else await this.decideOnce(m, decide, fallback || defaultFallback);
    }
    return new Result(m);
  }

  async decideOnce(m, decide, fallback) {
    const prompt = m.pending;
    let legal = prompt.legal;
    let legalStep = prompt.step;
    if (!Array.isArray(legal) || !legal.length || m.tries) {
      // The prompt has no list (an older server), or an answer was refused (the list
      // may be stale): ask the server.
      let reply;
      try {
        reply = await this.legal(m.id);
      } catch (e) {
        if (!(e instanceof ArbiterError)) throw e;
        this.log(`legal refused: ${e.message}`);
        if (m.pending === prompt) m.pending = null;
        return;
      }
      if (m.pending !== prompt) return; // while we asked, the decision changed
      legal = reply.actions || [];
      legalStep = reply.step;
      if (!legal.length) {
        m.pending = null; // nothing owed now; a prompt comes when something is
        return;
      }
    }
    const timeLeft = prompt.receivedAt + (prompt.deadline_ms ?? 60000) - Date.now();
    const context = Object.assign({}, prompt, {
      ruleset: m.ruleset, seat: m.seat, players: m.players, config: m.config,
      rejected: m.rejected, tries: m.tries, legalStep, timeLeft,
      budget: Math.max(0, Math.min(timeLeft, (prompt.deadline_ms || 0) - (prompt.time_bank_ms || 0))),
    });
    let action;
    if (m.tries >= 5) {
      action = legal[0]; // refused again and again: play the server's first choice
    } else {
      // Think until shortly before the time per decision runs out (or the whole
      // deadline, bank included, with useBank); then answer with the fallback.
      const thinking = this.useBank ? timeLeft : context.budget;
      const limit = Math.max(50, thinking - Math.max(200, 0.1 * thinking));
      action = await callWithDeadline(decide, [m.view, legal, context], limit, this.log);
      if (action == null) action = fallback(m.view, legal, context);
    }
    m.pending = null;
    m.answered = prompt;
    m.decisions++;
    await this.act(m.id, action, prompt.step);
    if (this.dropAfter != null && m.decisions === this.dropAfter) {
      this.log(`testing: dropping the connection after ${m.decisions} answers`);
      this.conn.drop();
    }
  }
}

// When the bot fails or runs out of time: a "pass" if the server lists one, else the
// server's first legal action.
function defaultFallback(view, legal) {
  const pass = legal.find((a) => a === 'pass' || a === 'nop' || (a && a.type === 'end_turn'));
  return pass !== undefined ? pass : legal[0];
}

// decide(...args), or null if it throws or its promise takes longer than `ms`. A
// synchronous decide cannot be interrupted: keep an eye on prompt.timeLeft yourself.
async function callWithDeadline(decide, args, ms, log) {
  let timer;
  const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve(undefined), ms); });
  try {
    const action = await Promise.race([Promise.resolve().then(() => decide(...args)), timeout]);
    if (action === undefined) log(`decide took longer than ${(ms / 1000).toFixed(1)} s: answering with the fallback`);
    return action === undefined ? null : action;
  } catch (e) {
    log(`decide failed: ${e.stack || e}`);
    return null;
  } finally {
    clearTimeout(timer);
  }
}

// GET url as JSON, within 10 s.
function getJson(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { body += c; });
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}: ${body.slice(0, 200)}`));
        try { resolve(JSON.parse(body)); } catch (e) { reject(e); }
      });
    });
    req.setTimeout(10000, () => req.destroy(new Error(`${url}: no answer within 10 s`)));
    req.on('error', reject);
  });
}

module.exports = {
  Client, Match, Result, ArbiterError, ConnectionLost, WaitTimeout, defaultFallback, backoffDelay, TcpConnection, WsConnection,
};
