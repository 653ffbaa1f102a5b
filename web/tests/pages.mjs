// Opens Arbiter's pages in headless Chromium as a person would and checks what they
// show. Run by crates/server/tests/browser.rs, which starts the server with finished
// matches and passes: ARBITER_URL, MATCHES (`ruleset=id,…`), PLAYER, SCREENSHOTS.
// Prints `ok <check>` per check passed; any failure throws (exit code 1).

import { chromium } from 'playwright-core';
import path from 'node:path';

const base = need('ARBITER_URL');
const shots = need('SCREENSHOTS');
const player = need('PLAYER');
const matches = need('MATCHES').split(',').map((pair) => pair.split('='));
const nimMatch = Object.fromEntries(matches).nim;
// The rulesets whose boards draw clickable moves (the others play from the move list).
const BOARD_MOVES = new Set(['nim', 'spacecrack', 'tae']);
// The board's screenshot is taken a few moves in, when the game is under way.
const SHOT_AT = 6;

function need(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

function check(condition, what) {
  if (!condition) throw new Error(`failed: ${what}`);
}

// Debian's Chromium, with the flags a machine without outside network needs.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
});
const errors = [];
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });

  // Lobby: every ruleset, and the finished matches with their replay links.
  await page.goto(`${base}/`);
  for (const name of ['Secret Nim', 'Q-Game', 'Space Crack', 'Rocket Scissor Spacegoo', 'Tigris']) {
    await page.getByText(name, { exact: false }).first().waitFor();
  }
  await page.locator(`a[href="#/replay/${nimMatch}"]`).first().waitFor();
  await page.screenshot({ path: path.join(shots, 'lobby.png'), fullPage: true });
  console.log('ok lobby');

  // A rules page, rendered from Markdown.
  await page.goto(`${base}/#/rules/nim`);
  await page.locator('h1, h2').filter({ hasText: /nim/i }).first().waitFor();
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

  // Play: a person registers, plays each ruleset to the end against a house bot by
  // clicking listed moves, and sees the result; a guest in another browser watches.
  await page.setViewportSize({ width: 1100, height: 800 });
  await register(page, `web${Date.now() % 100000}`);
  for (const [ruleset] of matches) {
    await playAgainstABot(page, ruleset);
    console.log(`ok play ${ruleset}`);
  }

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
  // Halfway for the screenshot, then the end by keyboard.
  const half = Math.floor(last / 2);
  for (let i = 0; i < half; i++) await page.keyboard.press('ArrowRight');
  await at(half, 'the right arrow steps forward');
  await page.screenshot({ path: path.join(shots, `replay-${ruleset}.png`), fullPage: true });
  await page.keyboard.press('End');
  await at(last, 'End goes to the last step');
  // At the end the result shows, with the stored summary.
  await page.getByTestId('outcome').filter({ hasText: stored.outcome.summary }).waitFor();
}

/// Register `name` from the account page; the header then shows it.
async function register(page, name) {
  await page.goto(`${base}/#/account`);
  await page.getByTestId('account-name').fill(name);
  await page.getByTestId('account-password').fill(`pw-${name}-secret`);
  await page.getByTestId('register').click();
  await page.getByTestId('account-name-shown').filter({ hasText: name }).waitFor();
}

/// From the lobby, "Play now" against the `random` bot; click the first listed move at
/// every turn until the result shows. Meanwhile a guest watches the match live and must
/// see it move and end.
async function playAgainstABot(page, ruleset) {
  // By link, not by reload: a reload would open a new connection, signed out.
  await page.evaluate(() => { location.hash = '#/'; });
  const play = page.getByTestId(`play-${ruleset}`);
  await play.getByTestId('bot').selectOption('random');
  await play.getByTestId('play-now').click();
  // A hash route: no page load to wait for.
  await page.waitForFunction(() => /^#\/match\/\d+/.test(location.hash));
  const id = page.url().match(/#\/match\/(\d+)/)[1];

  const guest = await browser.newContext();
  const watcher = await guest.newPage({ viewport: { width: 900, height: 800 } });
  watcher.on('pageerror', (e) => errors.push(`watcher page error: ${e.message}`));
  await watcher.goto(`${base}/#/watch/${id}`);
  const watched = watcher.getByTestId('step-counter');
  await watched.waitFor();
  const firstSeen = stepOf(await watched.innerText());

  let clicks = 0;
  let boardClicks = 0;
  const result = page.getByTestId('result');
  let rounds = 0;
  while (!(await result.isVisible())) {
    // A page that stopped making progress fails here rather than hanging the test.
    check(++rounds < 4000, `${ruleset}: no result after ${clicks} clicks`);
    // Wait for something to click: the board and the move list both come from the
    // seat's legal moves, so once one shows, the other has too. Then prefer the board:
    // a move drawn on it (a stone, a target, a Confirm), else something to select
    // first (a ship, a hand tile), else a pass-like button, and only then the list.
    const board = page.getByTestId('board');
    const anything = page.locator(
      '[data-testid="board"] [data-testid^="board-"], [data-testid="move"]').first();
    try {
      await anything.waitFor({ timeout: 5000 });
    } catch {
      continue; // the bot is thinking, or the match just ended: look again
    }
    let move = page.getByTestId('move').first();
    let fromBoard = false;
    for (const kind of ['board-move', 'board-select', 'board-pass']) {
      const found = board.getByTestId(kind);
      if ((await found.count()) > 0) {
        [move, fromBoard] = [found.first(), true];
        break;
      }
    }
    if (clicks === 0 || clicks === SHOT_AT) {
      await page.screenshot({ path: path.join(shots, `play-${ruleset}.png`), fullPage: true });
    }
    await move.click().catch(() => {}); // the list may re-render under the click
    clicks += 1;
    if (fromBoard) boardClicks += 1;
  }
  check(clicks > 0, `${ruleset}: the person clicked no move`);
  // Boards that draw their moves must be played on the board.
  if (BOARD_MOVES.has(ruleset)) {
    check(boardClicks === clicks,
      `${ruleset}: ${clicks - boardClicks} of ${clicks} moves needed the move list, not the board`);
  }
  await page.getByTestId('headline').waitFor();

  // The watcher saw the match move and end.
  await watcher.getByTestId('result').waitFor();
  const lastSeen = stepOf(await watched.innerText());
  check(lastSeen > firstSeen, `${ruleset}: the watcher saw step ${firstSeen} then ${lastSeen}`);
  if (ruleset === 'tae') {
    await watcher.screenshot({ path: path.join(shots, 'watch-tae.png'), fullPage: true });
  }
  await guest.close();
}

function stepOf(text) {
  const found = text.match(/(\d+)/);
  return found ? Number(found[1]) : -1;
}

