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

'use strict';

const { TinyWebSocket } = require('./websocket');
const net = require('net');
const http = require('http');

const PROTOCOL = 1;

class ArbiterError extends Error {
  constructor(reply) {
    super(`${reply.code}: ${reply.message}`);
    this.code = reply.code;
    this.reply = reply;
  }
}

class ConnectionLost extends Error {}

// Messages arriving on a connection, handed out one by one by recv().
class Inbox {
  constructor() {
    this.messages = [];
    this.waiters = [];
    this.closed = null;
  }
  push(message) {
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(message);
    else this.messages.push(message);
  }
  close(reason) {
    if (this.closed) return;
    this.closed = reason || 'the connection closed';
    for (const waiter of this.waiters.splice(0)) waiter.reject(new ConnectionLost(this.closed));
  }
  // The next message, or null when nothing came within timeoutMs.
  recv(timeoutMs) {
    if (this.messages.length) return Promise.resolve(this.messages.shift());
    if (this.closed) return Promise.reject(new ConnectionLost(this.closed));
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
      const socket = net.createConnection({ host, port }, () => resolve(conn));
      conn.socket = socket;
      let buffer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        buffer += chunk;
        let newline;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          if (line) conn.push(JSON.parse(line));
        }
      });
      socket.on('error', (e) => { conn.close(e.message); reject(e); });
      socket.on('close', () => conn.close('the server closed the connection'));
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
      ws.onopen = () => resolve(conn);
      ws.onmessage = (event) => conn.push(JSON.parse(event.data));
      ws.onerror = (event) => { const e = new Error(event.message || 'websocket error'); conn.close(e.message); reject(e); };
      ws.onclose = () => conn.close('the server closed the connection');
    });
  }
  send(message) {
    if (this.closed) throw new ConnectionLost(this.closed);
    this.ws.send(JSON.stringify(message));
  }
  drop() { this.ws.close(); this.close('dropped'); }
  end() { this.ws.close(); }
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
  // name, password; http (HOST:PORT of the HTTP API, for outcomes missed while away).
  constructor(options) {
    this.options = Object.assign({ host: '127.0.0.1', port: 7000, transport: 'tcp' }, options);
    this.log = this.options.log || ((text) => process.stderr.write(text + '\n'));
    this.verbose = !!this.options.verbose;
    this.conn = null;
    this.session = null;
    this.matches = new Map();
    this.generation = 0; // bumped on every reconnection
    this.dropAfter = null; // testing: drop the connection after this many answers
    this.useBank = !!this.options.useBank; // let decide run into the time bank before the fallback
  }

  // ---- connection and login ------------------------------------------------------

  // Connect and log in: resume the session, else register, else log in.
  async connect() {
    const o = this.options;
    this.conn = o.transport === 'ws' ? await WsConnection.open(o.url) : await TcpConnection.open(o.host, o.port);
    const welcome = await this.conn.recv(10000);
    if (!welcome || welcome.type !== 'welcome') throw new ConnectionLost(`expected welcome, got ${JSON.stringify(welcome)}`);
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
    for (;;) {
      try {
        const reply = await this.rawRequest(message, 'registered', 'logged_in');
        this.session = reply.session || this.session;
        return reply;
      } catch (e) {
        if (e.code !== 'login_throttled') throw e;
        await sleep(e.reply.retry_after_ms || 1000);
      }
    }
  }

  // Send on the current connection and wait for the reply (no reconnecting).
  async rawRequest(message, ...replyTypes) {
    this.sendNow(message);
    for (;;) {
      const reply = await this.conn.recv(30000);
      if (reply == null) throw new ConnectionLost(`no reply to ${message.type}`);
      this.handle(reply);
      if (replyTypes.includes(reply.type)) return reply;
      if (reply.type === 'error') throw new ArbiterError(reply);
    }
  }

  // After a lost connection: connect again and resume the session; the server
  // re-attaches every running seat (joined, view and the pending prompt follow).
  async reconnect(attempts = 20) {
    if (this.conn) this.conn.end();
    for (const m of this.matches.values()) {
      m.pending = m.answered = null; // a decision still owed is prompted again
    }
    let reply = null;
    for (let attempt = 1; attempt <= attempts && !reply; attempt++) {
      try {
        reply = await this.connect();
      } catch (e) {
        if (e instanceof ArbiterError) throw e;
        this.log(`reconnect ${attempt} failed: ${e.message}`);
        await sleep(Math.min(5000, 500 * attempt));
      }
    }
    if (!reply) throw new ConnectionLost('could not reconnect');
    this.generation++;
    const resumed = new Set(reply.resumed || []);
    this.log(`reconnected; resumed matches [${[...resumed].join(', ')}]`);
    for (const m of this.matches.values()) {
      if (!m.done && !resumed.has(m.id)) await this.outcomeOverHttp(m);
    }
    return reply;
  }

  // A match that ended while we were away: its outcome from the HTTP API.
  async outcomeOverHttp(m) {
    if (this.options.http) {
      try {
        const summary = await getJson(`http://${this.options.http}/api/matches/${m.id}`);
        if (summary.outcome) {
          m.outcome = summary.outcome;
          m.headline = `(outcome read over HTTP) ${m.outcome.summary}`;
        }
      } catch (e) {
        this.log(`could not read match ${m.id} over HTTP: ${e.message}`);
      }
    }
    m.pending = null;
    m.done = true;
  }

  // ---- sending and receiving -----------------------------------------------------

  sendNow(message) {
    if (this.verbose) this.log('-> ' + JSON.stringify(message).slice(0, 300));
    this.conn.send(message);
  }

  // Send, reconnecting once if the connection is gone.
  async send(message) {
    try {
      this.sendNow(message);
    } catch (e) {
      if (!(e instanceof ConnectionLost)) throw e;
      await this.reconnect();
      this.sendNow(message);
    }
  }

  // Read one message (reconnecting if needed), update the matches, return it.
  async pump(timeoutMs) {
    let message;
    try {
      message = await this.conn.recv(timeoutMs);
    } catch (e) {
      if (!(e instanceof ConnectionLost)) throw e;
      this.log(`connection lost: ${e.message}`);
      await this.reconnect();
      return null;
    }
    if (message != null) this.handle(message);
    return message;
  }

  // Send a request and return its reply; match messages arriving meanwhile are
  // handled. Throws ArbiterError on an "error" reply.
  async request(message, ...replyTypes) {
    for (;;) {
      const generation = this.generation;
      await this.send(message);
      while (generation === this.generation) {
        const reply = await this.pump(60000);
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

  // Wait in the matchmaking queue; resolves to the match id once paired.
  async queue(ruleset, { config, seats } = {}) {
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
    for (;;) {
      const generation = this.generation;
      const m = await this.pump(60000);
      if (m && m.type === 'match_started') return m.match;
      if (m && m.type === 'error') throw new ArbiterError(m);
      if (generation !== this.generation) await join(); // the queue forgets a closed connection
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
    const started = await this.request({ type: 'start_table', table, fill: houseBot }, 'match_started');
    return started.match;
  }

  // ---- playing -------------------------------------------------------------------

  // The actions your seat may answer now (empty when it owes nothing).
  legal(matchId) {
    return this.request({ type: 'legal', match: matchId }, 'legal');
  }

  act(matchId, action) {
    return this.send({ type: 'act', match: matchId, action });
  }

  // Answer every prompt of the match with `decide` until it ends; resolves to a Result.
  async play(matchId, decide, fallback) {
    if (!this.matches.has(matchId)) this.matches.set(matchId, new Match(matchId));
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
    await this.act(m.id, action);
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

function getJson(url) {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { body += c; });
      res.on('end', () => { try { resolve(JSON.parse(body)); } catch (e) { reject(e); } });
    }).on('error', reject);
  });
}

module.exports = { Client, Match, Result, ArbiterError, ConnectionLost, defaultFallback, TcpConnection, WsConnection };
