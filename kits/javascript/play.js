#!/usr/bin/env node
// Play whole matches on an Arbiter server with a bot's decide() function.
//
//   node play.js --server 127.0.0.1:7000 --ruleset tae --name alice --password pw \
//       --games 1 [--house-bot random] [--queue] [--tournament ID] [--transport tcp|ws] [--http 127.0.0.1:8080] [--ws-url wss://…]
//
// Prints one line per game; exits 0 when every game ended with an outcome and your seat
// was not ejected, 1 otherwise.
'use strict';

const fs = require('fs');
const path = require('path');
const { Client, ArbiterError, ConnectionLost, WaitTimeout } = require('./arbiter-kit');

const BOTS = path.join(__dirname, 'bots');

// The rulesets the kit has a bot for: bots/<ruleset>.js.
function kitRulesets() {
  return fs.readdirSync(BOTS).filter((f) => f.endsWith('.js')).map((f) => f.slice(0, -3)).sort();
}

const USAGE = `usage: node play.js --ruleset R --name N --password P [options]
  --server HOST:PORT    native TCP address (default 127.0.0.1:7000)
  --http HOST:PORT      HTTP address: WebSocket (ws://HOST:PORT/ws) and the API (default 127.0.0.1:8080)
  --transport tcp|ws    how to connect (default tcp); ws needs Node 22+
  --ws-url URL          the WebSocket's address, ws:// or wss:// (default ws://HTTP/ws)
  --games N             matches to play, one after another (default 1)
  --house-bot NAME      house bot filling the table's other seats (default random)
  --queue               join the matchmaking queue instead of opening a table
  --tournament ID       enter tournament ID (or come back to it) and play its games until it ends
  --wait S              seconds to wait for a game to start (queue: default 600; tournament: until it ends)
  --reconnect-for S     seconds to keep trying to reconnect after a lost connection (default 120)
  --seats N             seats per match (default 2)
  --config JSON         the ruleset's configuration (missing fields default)
  --deadline-ms MS      table only: time per decision
  --bot FILE            bot module exporting decide (default bots/<ruleset>.js; the kit has
                        bots for ${kitRulesets().join(', ')})
  --drop-after N        testing: drop the connection after N answers, once per game
  -v, --verbose         print every message`;

function parseArgs(argv) {
  const args = { server: '127.0.0.1:7000', http: null, transport: 'tcp', games: 1, houseBot: 'random', queue: false, verbose: false };
  const names = { '--server': 'server', '--http': 'http', '--transport': 'transport', '--ruleset': 'ruleset',
    '--name': 'name', '--password': 'password', '--games': 'games', '--house-bot': 'houseBot', '--seats': 'seats',
    '--config': 'config', '--deadline-ms': 'deadlineMs', '--bot': 'bot', '--drop-after': 'dropAfter',
    '--tournament': 'tournament', '--wait': 'wait', '--reconnect-for': 'reconnectFor', '--ws-url': 'wsUrl' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--queue') args.queue = true;
    else if (a === '-v' || a === '--verbose') args.verbose = true;
    else if (a === '-h' || a === '--help') { console.log(USAGE); process.exit(0); }
    else if (names[a] && i + 1 < argv.length) args[names[a]] = argv[++i];
    else { console.error(`unknown argument ${a}\n${USAGE}`); process.exit(2); }
  }
  for (const required of ['ruleset', 'name', 'password']) {
    if (!args[required]) { console.error(`--${required} is required\n${USAGE}`); process.exit(2); }
  }
  for (const n of ['games', 'seats', 'deadlineMs', 'dropAfter', 'tournament', 'wait', 'reconnectFor']) {
    if (args[n] != null) args[n] = Number(args[n]);
  }
  if (!['tcp', 'ws'].includes(args.transport)) { console.error('--transport is tcp or ws'); process.exit(2); }
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const botFile = path.resolve(args.bot || path.join(BOTS, `${args.ruleset}.js`));
  if (!args.bot && !fs.existsSync(botFile)) {
    console.error(`no bot file ${botFile}: pass one with --bot FILE (the kit has bots for ${kitRulesets().join(', ')})`);
    return 2;
  }
  const bot = require(botFile);
  const [host, port] = args.server.split(/:(?=[^:]*$)/);
  const httpAddress = args.http || '127.0.0.1:8080';
  const client = new Client({
    transport: args.transport, host, port: Number(port || 7000), url: args.wsUrl || `ws://${httpAddress}/ws`,
    http: httpAddress, name: args.name, password: args.password, verbose: args.verbose,
    reconnectForMs: (args.reconnectFor ?? 120) * 1000,
  });
  try {
    await client.connect();
  } catch (e) {
    console.log(`cannot log in to ${args.transport === 'ws' ? client.options.url : args.server}: ${e.message}`);
    return 1;
  }
  if (args.tournament != null) return playTournament(client, args, bot);
  const config = args.config ? JSON.parse(args.config) : undefined;
  let failures = 0;
  for (let game = 1; game <= args.games; game++) {
    const started = Date.now();
    let line;
    let ok = false;
    try {
      const match = args.queue
        ? await client.queue(args.ruleset, { config, seats: args.seats, timeoutMs: args.wait != null ? args.wait * 1000 : 600000 })
        : await client.createTable(args.ruleset, { seats: args.seats || 2, houseBot: args.houseBot, config, deadlineMs: args.deadlineMs });
      client.dropAfter = args.dropAfter;
      const result = await client.play(match, bot.decide, bot.fallback);
      line = result.line();
      ok = result.ok;
    } catch (e) {
      if (!(e instanceof ArbiterError || e instanceof ConnectionLost || e instanceof WaitTimeout || e.code)) throw e;
      line = `failed after ${((Date.now() - started) / 1000).toFixed(1)} s: ${e.message}`;
    }
    if (!ok) failures++;
    console.log(`game ${game}/${args.games}: ${ok ? 'ok' : 'FAILED'} ${line}`);
  }
  if (client.conn) client.conn.end();
  return failures === 0 ? 0 : 1;
}

// Play every game the tournament pairs us in, one line each, until it ends.
async function playTournament(client, args, bot) {
  const started = Date.now();
  let games = 0;
  let failures = 0;
  try {
    for (;;) {
      const match = await client.tournamentGame(args.tournament, { timeoutMs: args.wait != null ? args.wait * 1000 : null });
      if (match == null) break;
      games++;
      client.dropAfter = args.dropAfter;
      const result = await client.play(match, bot.decide, bot.fallback);
      if (!result.ok) failures++;
      console.log(`game ${games} (tournament ${args.tournament}): ${result.ok ? 'ok' : 'FAILED'} ${result.line()}`);
    }
  } catch (e) {
    if (!(e instanceof ArbiterError || e instanceof ConnectionLost || e instanceof WaitTimeout || e.code)) throw e;
    console.log(`tournament ${args.tournament}: FAILED after ${((Date.now() - started) / 1000).toFixed(1)} s: ${e.message}`);
    return 1;
  }
  console.log(`tournament ${args.tournament} is over: ${games} games, ${failures} failed`);
  if (client.conn) client.conn.end();
  return failures === 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (e) => { console.error(e.stack || e); process.exit(1); });
