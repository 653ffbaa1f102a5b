// Opens Arbiter's pages in headless Chromium as a person would and checks what they
// show. Run by crates/server/tests/browser.rs, which starts the server with finished
// matches, a finished Swiss tournament and an arena with one bot waiting in it, and
// passes: ARBITER_URL, MATCHES (`ruleset=id,…`), PLAYER, SCREENSHOTS, SWISS and ARENA
// (tournament ids) and ARBITER_TCP (the native protocol's address). Prints `ok <check>` per check passed; any failure throws (exit
// code 1).

import net from 'node:net';
import path from 'node:path';
import {
  check, launchChromium, need, playToTheResult, register, startAgainstABot,
} from './person.mjs';

const base = need('ARBITER_URL');
const shots = need('SCREENSHOTS');
const player = need('PLAYER');
const matches = need('MATCHES').split(',').map((pair) => pair.split('='));
const nimMatch = Object.fromEntries(matches).nim;
const swiss = need('SWISS');
const arena = need('ARENA');
const botsOnly = need('BOTS_ONLY');
const [tcpHost, tcpPort] = need('ARBITER_TCP').split(':');
// The board's screenshot is taken a few moves in, when the game is under way.
const SHOT_AT = 6;

const browser = await launchChromium();
const errors = [];
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });

  // Lobby: every ruleset the server ships (its own list), and the finished matches with
  // their replay links.
  const shipped = await (await fetch(`${base}/api/rulesets`)).json();
  check(shipped.length > 0, 'the server lists its rulesets');
  check(shipped.every((r) => matches.some(([id]) => id === r.id)),
    `a finished match of every ruleset: ${shipped.map((r) => r.id)} vs ${matches.map(([id]) => id)}`);
  await page.goto(`${base}/`);
  for (const { name } of shipped) {
    await page.getByText(name, { exact: false }).first().waitFor();
  }
  await page.locator(`a[href="#/replay/${nimMatch}"]`).first().waitFor();
  await page.screenshot({ path: path.join(shots, 'lobby.png'), fullPage: true });
  console.log('ok lobby');

  // A rules page, rendered from Markdown.
  await page.goto(`${base}/#/rules/nim`);
  await page.locator('h1, h2').filter({ hasText: /nim/i }).first().waitFor();
  // Rendered by the server: sections named by their headings, tables, code.
  await page.locator('article.rules h2#actions').waitFor();
  check(await page.locator('article.rules table td code').count() > 0, 'the rules page shows its tables');
  check(await page.locator('article.rules pre code').count() > 0, 'the rules page shows its code blocks');
  await page.screenshot({ path: path.join(shots, 'rules.png'), fullPage: true });
  console.log('ok rules');

  for (const [ruleset, id] of matches) {
    await replay(page, ruleset, id);
    console.log(`ok replay ${ruleset}`);
  }

  // The leaderboard lists both players; the player page draws the rating history.
  await page.goto(`${base}/#/leaderboard/nim`);
  await page.locator(`a[href="#/player/${player}"]`).first().waitFor();
  await page.screenshot({ path: path.join(shots, 'leaderboard.png'), fullPage: true });
  console.log('ok leaderboard');

  await page.goto(`${base}/#/player/${player}`);
  await page.locator('svg').first().waitFor();
  await page.locator(`a[href^="#/replay/"]`).first().waitFor();
  await page.screenshot({ path: path.join(shots, 'player.png'), fullPage: true });
  console.log('ok player');

  // A phone-width screen: the lobby still fits without sideways scrolling.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`${base}/`);
  await page.getByText('Secret Nim').first().waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 1, `the lobby is ${overflow}px wider than a phone screen`);
  await page.screenshot({ path: path.join(shots, 'lobby-phone.png'), fullPage: true });
  console.log('ok phone');
  await page.setViewportSize({ width: 1100, height: 800 });

  await swissTournament(page);

  // Play: a person registers, plays each ruleset to the end against a house bot by
  // clicking listed moves, and sees the result; a guest in another browser watches.
  const person = `web${Date.now() % 100000}`;
  await register(page, base, person);
  // Signed in stays signed in across a reload (the page keeps a session, not the password).
  await page.reload();
  await page.getByTestId('account-name-shown').filter({ hasText: person }).waitFor();
  console.log('ok reload keeps the session');
  let played = null;
  for (const [ruleset] of matches) {
    const short = { qgame: shortQgame, spacegoo: shortSpacegoo }[ruleset];
    played = await playAgainstABot(page, ruleset, short ? short() : null);
    console.log(`ok play ${ruleset}`);
  }

  // The player's own view of the last match, beside the spectators'.
  await page.evaluate((id) => { location.hash = `#/replay/${id}`; }, played);
  await page.getByTestId('your-view').click();
  await page.waitForFunction(() => /\?seat=0$/.test(location.hash));
  await page.getByTestId('view-choice').getByText("Your seat's view").waitFor();
  await page.getByTestId('board').locator('svg').first().waitFor();
  console.log('ok private replay');

  const rated = await ratedQueue(page, person);
  console.log('ok rated queue');

  // That rated game is on the leaderboard, in the person's chart and recent matches.
  await page.evaluate(() => { location.hash = '#/leaderboard/nim'; });
  await page.locator(`a[href="#/player/${person}"]`).first().waitFor();
  await page.evaluate((name) => { location.hash = `#/player/${name}`; }, person);
  await page.locator('figure.chart-box svg').first().waitFor();
  await page.locator(`a[href="#/replay/${rated}"]`).first().waitFor();
  console.log('ok rated game on the leaderboard and chart');

  await arenaGame(page, person);
  console.log('ok tournament arena');

  await standInAndBack(page, person);
  console.log('ok stand-in and take the seat back');

  // Every board fits a phone-width screen (the replay draws what the play page draws).
  await page.setViewportSize({ width: 360, height: 740 });
  for (const [ruleset, id] of matches) {
    await page.evaluate((match) => { location.hash = `#/replay/${match}`; }, id);
    await page.getByTestId('board').locator('svg').first().waitFor();
    await page.keyboard.press('End');
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(wide <= 1, `${ruleset}: the board is ${wide}px wider than a phone screen`);
  }
  console.log('ok boards fit a phone');

  // The tournament pages fit a phone too (their tables scroll inside their boxes).
  for (const [hash, shown] of [
    ['#/tournaments', 'tournaments-going'], [`#/tournament/${swiss}`, 'standings'],
    [`#/tournament/${arena}`, 'standings'], [`#/tournament/${swiss}/player/cyd`, 'entrant-games'],
  ]) {
    await page.evaluate((h) => { location.hash = h; }, hash);
    await page.getByTestId(shown).waitFor();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(wide <= 1, `${hash} is ${wide}px wider than a phone screen`);
  }
  console.log('ok tournaments fit a phone');

  check(errors.length === 0, `no errors in the page:\n${errors.join('\n')}`);
} finally {
  await browser.close();
}

/// The replay player steps from the first step to the last, by keyboard and by button.
async function replay(page, ruleset, id) {
  const response = await fetch(`${base}/api/matches/${id}/replay`);
  const stored = await response.json();
  const last = stored.steps.length - 1;
  await page.goto(`${base}/#/replay/${id}`);
  const counter = page.getByTestId('step-counter');
  await counter.waitFor();
  await page.getByTestId('board').locator('svg').first().waitFor();
  // The counter reads "step i / n".
  const at = async (step, what) => {
    const text = await counter.innerText();
    const shown = text.match(/(\d+)\s*\/\s*(\d+)/);
    check(shown && Number(shown[1]) === step && Number(shown[2]) === last,
      `${ruleset}: ${what} (the counter says ${JSON.stringify(text)}, expected ${step} / ${last})`);
  };
  await at(0, 'the replay starts at step 0');
  await page.getByTestId('next').click();
  await at(1, 'next goes to step 1');
  await page.getByTestId('prev').click();
  await at(0, 'back goes to step 0');
  // A few steps by keyboard, then halfway by the slider for the screenshot (a key press
  // per step took seconds in a long Q-Game), then the end by keyboard.
  const steps = Math.min(3, last);
  for (let i = 0; i < steps; i++) await page.keyboard.press('ArrowRight');
  await at(steps, 'the right arrow steps forward');
  const half = Math.floor(last / 2);
  await page.getByTestId('slider').fill(String(half));
  await at(half, 'the slider goes to a step');
  await page.screenshot({ path: path.join(shots, `replay-${ruleset}.png`), fullPage: true });
  await page.keyboard.press('End');
  await at(last, 'End goes to the last step');
  // At the end the result shows, with the stored summary.
  await page.getByTestId('outcome').filter({ hasText: stored.outcome.summary }).waitFor();
}

/// Register `name` from the account page; the header then shows it.
/// A short Q-Game for the table test: a map of one tile, a pile of 12 and two hands of
/// six (the full set takes a random player some 500 turns, minutes of clicking).
function shortQgame() {
  const colors = ['red', 'green', 'blue', 'yellow', 'orange', 'purple'];
  const shapes = ['star', '8star', 'square', 'circle', 'clover', 'diamond'];
  const tiles = (from, n) => Array.from({ length: n }, (_, i) =>
    ({ color: colors[(from + i) % 6], shape: shapes[Math.floor((from + i) / 2) % 6] }));
  return {
    qbo: 8, fbo: 4,
    state0: {
      map: [[0, [0, { shape: 'star', color: 'red' }]]],
      'tile*': tiles(12, 12),
      players: [{ score: 0, 'tile*': tiles(0, 6) }, { score: 0, 'tile*': tiles(6, 6) }],
    },
  };
}

/// A short spacegoo game for the table test: 60 rounds at most. With the default 500
/// a game between the page's first-move clicks and the random bot lasted anywhere
/// from a hundred clicks to fifteen hundred (over a minute of a CI run, by chance).
function shortSpacegoo() {
  return { max_rounds: 60 };
}

/// Play a match against the `random` bot by clicking what the page shows (the board
/// first) at every turn until the result shows. Meanwhile a guest watches the match
/// live and must see it move and end.
async function playAgainstABot(page, ruleset, viaTable = null) {
  const id = await startAgainstABot(page, ruleset, viaTable);

  const guest = await browser.newContext();
  const watcher = await guest.newPage({ viewport: { width: 900, height: 800 } });
  watcher.on('pageerror', (e) => errors.push(`watcher page error: ${e.message}`));
  await watcher.goto(`${base}/#/watch/${id}`);
  const watched = watcher.getByTestId('step-counter');
  await watched.waitFor();
  const firstSeen = stepOf(await watched.innerText());

  const { clicks, boardClicks } = await playToTheResult(page, ruleset, async (made) => {
    if (made === 0 || made === SHOT_AT) {
      await page.screenshot({ path: path.join(shots, `play-${ruleset}.png`), fullPage: true });
    }
  });
  check(clicks > 0, `${ruleset}: the person clicked no move`);
  // Every ruleset's board draws its moves, so the whole game is played on the board.
  check(boardClicks === clicks,
    `${ruleset}: ${clicks - boardClicks} of ${clicks} moves needed the move list, not the board`);
  await page.getByTestId('headline').waitFor();

  // The watcher saw the match move and end.
  await watcher.getByTestId('result').waitFor();
  const lastSeen = stepOf(await watched.innerText());
  check(lastSeen > firstSeen, `${ruleset}: the watcher saw step ${firstSeen} then ${lastSeen}`);
  if (ruleset === 'tae') {
    await watcher.screenshot({ path: path.join(shots, 'watch-tae.png'), fullPage: true });
  }
  await guest.close();
  return id;
}

/// Two people press "Rated game" for Secret Nim: matchmaking pairs them and both pages
/// open the match; one resigns, and both see the result.
async function ratedQueue(page, person) {
  const other = await browser.newContext();
  const rival = await other.newPage({ viewport: { width: 900, height: 800 } });
  rival.on('pageerror', (e) => errors.push(`rival page error: ${e.message}`));
  await register(rival, base, `${person}b`);
  for (const p of [page, rival]) {
    await p.evaluate(() => { location.hash = '#/'; });
    await p.getByTestId('queue-nim').getByTestId('join-queue').click();
  }
  for (const p of [page, rival]) await p.waitForFunction(() => /^#\/match\/\d+/.test(location.hash));
  check(page.url().split('#')[1] === rival.url().split('#')[1], 'the queue put both in one match');
  await page.getByTestId('resign').click();
  await page.getByTestId('resign-confirm').click();
  for (const p of [page, rival]) await p.getByTestId('result').waitFor();
  await other.close();
  return page.url().match(/#\/match\/(\d+)/)[1];
}

/// A guest finds the finished Swiss tournament in the list and opens it: the standings
/// (every entrant, a column per tie-break, explained), the last round's games with their
/// replays, the first round folded away, the downloads; then one entrant's page.
async function swissTournament(page) {
  await page.goto(`${base}/#/tournaments`);
  // The arena (open, one bot in it) is listed first, the finished Swiss below.
  await page.locator(`[data-testid="tournaments-going"] [data-tournament="${arena}"]`).waitFor();
  await page.getByTestId('tournaments-done').locator(`a[href="#/tournament/${swiss}"]`).click();
  await page.waitForFunction((id) => location.hash === `#/tournament/${id}`, swiss);
  console.log('ok tournaments');

  const document = await (await fetch(`${base}/api/tournaments/${swiss}`)).json();
  const standings = page.getByTestId('standings');
  await standings.getByTestId('standing').nth(document.standings.length - 1).waitFor();
  check(await standings.getByTestId('standing').count() === 5, 'the Swiss standings list its five entrants');
  // Network bots played it (their client registers bots), in a tournament open to both.
  check(document.standings.every((s) => s.bot), 'the document marks every entrant a bot');
  check(await standings.getByTestId('bot-badge').count() === 5, 'each entrant has a bot badge');
  await page.getByTestId('tournament-entry-rule').filter({ hasText: 'people and bots' }).waitFor();
  for (const line of document.standings) {
    const row = standings.locator(`[data-player="${line.name}"]`);
    check((await row.getByTestId('played').innerText()) === String(line.played), `${line.name}'s games played`);
  }
  const breaks = standings.locator('th.tiebreak');
  check(await breaks.count() === document.tiebreaks.length, 'a column per tie-break');
  for (let i = 0; i < document.tiebreaks.length; i++) {
    check(!!(await breaks.nth(i).getAttribute('title')), `the ${document.tiebreaks[i]} column says what it counts`);
  }
  await page.getByTestId('tournament-status').filter({ hasText: 'finished' }).waitFor();
  const round = page.getByTestId('current-round');
  await round.getByText('Round 2').waitFor();
  const last = document.games.filter((g) => g.round === 2);
  check(await round.getByTestId('game').count() === last.length, 'the last round lists its games');
  for (const game of last) await round.locator(`a[href="#/replay/${game.match}"]`).waitFor();
  await round.getByText(/Bye/).waitFor();
  const earlier = page.getByTestId('earlier-round');
  check(await earlier.count() === 1, 'round 1 is folded away below');
  check(!(await earlier.locator('[data-testid="game"]').first().isVisible()), 'round 1 starts folded');
  await page.screenshot({ path: path.join(shots, 'tournament.png'), fullPage: true });
  await earlier.locator('summary').click();
  await earlier.getByTestId('game').first().waitFor();
  for (const [link, start] of [['results-json', '{'], ['results-csv', 'rank,name,points']]) {
    const href = await page.getByTestId(link).getAttribute('href');
    const body = await (await fetch(`${base}${href}`)).text();
    check(body.trimStart().startsWith(start), `the ${link} download (${href}) starts with ${start}`);
  }

  // An entrant's page: their line, and each round's game or bye.
  const who = document.standings[0].name;
  await standings.locator(`[data-player="${who}"] a`).first().click();
  await page.getByTestId('entrant-name').filter({ hasText: who }).waitFor();
  // The lines come with the tournament's state: wait for the second before counting.
  await page.getByTestId('entrant-game').nth(1).waitFor();
  check(await page.getByTestId('entrant-game').count() === 2, `${who}'s page lists a line for each of 2 rounds`);
  await page.getByTestId('standing').first().waitFor();
  check(await page.getByTestId('standing').count() === 1, `${who}'s page shows their standing`);
  console.log('ok tournament swiss');
}

/// The person joins the arena (the bot waits in it), so it starts and pairs them: the
/// page opens the game, the person plays it on the board, goes back to the tournament
/// and finds one game played in their line of the standings.
async function arenaGame(page, person) {
  // A bots-only tournament tells the person why they cannot join, with no Join button.
  await page.evaluate((id) => { location.hash = `#/tournament/${id}`; }, botsOnly);
  await page.getByTestId('entry-excluded').filter({ hasText: 'bots only' }).waitFor();
  check(await page.getByTestId('join').count() === 0, 'no Join button on a bots-only tournament for a person');
  await page.evaluate(() => { location.hash = '#/tournaments'; });
  await page.locator(`[data-testid="tournaments-going"] [data-tournament="${arena}"] h3 a`).click();
  await page.waitForFunction((id) => location.hash === `#/tournament/${id}`, arena);
  await page.getByTestId('join').click();
  await page.waitForFunction(() => /^#\/match\/\d+$/.test(location.hash), null, { timeout: 20000 });
  const game = page.url().match(/#\/match\/(\d+)/)[1];
  const { clicks, boardClicks } = await playToTheResult(page, 'nim');
  check(clicks > 0 && boardClicks === clicks, `the arena game was played on the board (${boardClicks} of ${clicks})`);
  await page.getByTestId('headline').waitFor();
  await page.getByTestId('back-to-tournament').click();
  await page.waitForFunction((id) => location.hash === `#/tournament/${id}`, arena);
  const line = page.locator(`[data-testid="standing"][data-player="${person}"]`);
  await line.getByTestId('played').filter({ hasText: /^1$/ }).waitFor();
  await page.getByTestId('earlier-rounds').locator(`a[href="#/replay/${game}"]`).waitFor();
  await page.getByTestId('tournament-status').filter({ hasText: 'running' }).waitFor();
  // Its clock counts down (from 10:00).
  await page.getByTestId('time-left').filter({ hasText: /^9:\d\d$/ }).waitFor();
  await page.screenshot({ path: path.join(shots, 'tournament-arena.png'), fullPage: true });
}

/// The person leaves the arena and opens a T&E table (3 s a move, no bank, out after one miss), a program
/// joins it over TCP and answers its prompts after 2.5 s; the person stops answering, so
/// the house bot takes the seat (the page says so and offers it back), and one click
/// takes it back.
async function standInAndBack(page, person) {
  // Pause the arena (the standings say so) and resume; then out of it, so that it
  // pairs the person no more.
  await page.evaluate((id) => { location.hash = `#/tournament/${id}`; }, arena);
  await page.getByTestId('pause').click();
  await page.getByTestId('paused').waitFor();
  await page.locator(`[data-testid="standing"][data-player="${person}"]`).getByText('(paused)').waitFor();
  await page.getByTestId('resume').click();
  await page.getByTestId('pause').waitFor();
  await page.getByTestId('withdraw').click();
  await page.getByTestId('withdraw-confirm').click();
  await page.getByText('You withdrew from this tournament.').waitFor();
  await page.evaluate(() => { location.hash = '#/'; });
  await page.getByTestId('open-table').click();
  const form = page.getByTestId('new-table');
  await form.getByTestId('table-ruleset').selectOption('tae');
  await form.getByTestId('table-deadline').fill('3');
  await form.getByTestId('table-bank').fill('0');
  await form.getByTestId('table-abandon').fill('1');
  await form.getByTestId('create-table').click();
  const table = page.getByTestId('table').filter({ hasText: '3 s a move' });
  const tableId = await table.getAttribute('data-table');
  const rival = `${person}s`;
  const socket = net.connect(Number(tcpPort), tcpHost);
  const send = (m) => socket.write(`${JSON.stringify(m)}\n`);
  let buffered = '';
  socket.on('data', (data) => {
    buffered += data;
    for (let end; (end = buffered.indexOf('\n')) >= 0; buffered = buffered.slice(end + 1)) {
      const m = JSON.parse(buffered.slice(0, end));
      if (m.type === 'registered') {
        send({ type: 'options', legal_in_prompt: true });
        send({ type: 'join_table', table: Number(tableId) });
      }
      if (m.type === 'prompt' && m.legal?.length) {
        setTimeout(() => send({ type: 'act', match: m.match, action: m.legal[0] }), 2500);
      }
    }
  });
  send({ type: 'register', name: rival, password: `pw-${rival}-secret` });
  try {
    await table.getByText(rival).waitFor();
    await table.getByTestId('start-table').click();
    await page.waitForFunction(() => /^#\/match\/\d+/.test(location.hash));
    // The person's 3 s run out: the page tells them a house bot plays for them.
    await page.getByTestId('take-seat').waitFor({ timeout: 20000 });
    // The arena may have paired the person once more before the withdrawal: its banner
    // is not this page's subject.
    const banner = page.getByRole('button', { name: 'Dismiss' });
    if (await banner.isVisible()) await banner.click();
    check((await page.getByTestId('turn').innerText()).includes('house bot'), 'the page says a house bot plays the seat');
    await page.screenshot({ path: path.join(shots, 'stand-in.png'), fullPage: true });
    await page.getByTestId('take-seat').click();
    await page.getByTestId('take-seat').waitFor({ state: 'detached' });
    await page.getByTestId('resign').click();
    await page.getByTestId('resign-confirm').click();
    await page.getByTestId('result').waitFor();
  } finally {
    socket.destroy();
  }
}

function stepOf(text) {
  const found = text.match(/(\d+)/);
  return found ? Number(found[1]) : -1;
}

