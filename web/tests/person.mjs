// What a person does in the browser tests, shared by pages.mjs (every page and
// ruleset) and restart.mjs (a game that outlives its server): open Chromium, register,
// start a game against a house bot, and click moves until the result shows.

import { chromium } from 'playwright-core';

export function need(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

export function check(condition, what) {
  if (!condition) throw new Error(`failed: ${what}`);
}

// Debian's Chromium, with the flags a machine without outside network needs.
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

export async function register(page, base, name) {
  await page.goto(`${base}/#/account`);
  await page.getByTestId('account-name').fill(name);
  await page.getByTestId('account-password').fill(`pw-${name}-secret`);
  await page.getByTestId('register').click();
  await page.getByTestId('account-name-shown').filter({ hasText: name }).waitFor();
}

/// Start a match against the `random` bot: "Play now", or (`viaTable`) the lobby's
/// table form with these options typed in as JSON, a bot added to the free seat, Start.
export async function startAgainstABot(page, ruleset, viaTable) {
  // By link: a reload also works (the session survives it) but costs a page load.
  await page.evaluate(() => { location.hash = '#/'; });
  if (viaTable) {
    await page.getByTestId('open-table').click();
    const form = page.getByTestId('new-table');
    await form.getByTestId('table-ruleset').selectOption(ruleset);
    await form.getByTestId('table-deadline').fill('30');
    await form.getByTestId('table-bank').fill('120');
    await form.locator('summary').click();
    await form.getByTestId('table-config').fill(JSON.stringify(viaTable));
    await form.getByTestId('create-table').click();
    const table = page.getByTestId('table').filter({ hasText: '30 s a move' });
    await table.getByTestId('add-bot').click();
    await table.getByText('random (bot)').waitFor();
    await table.getByTestId('start-table').click();
  } else {
    const play = page.getByTestId(`play-${ruleset}`);
    await play.getByTestId('bot').selectOption('random');
    await play.getByTestId('play-now').click();
  }
  // A hash route: no page load to wait for.
  await page.waitForFunction(() => /^#\/match\/\d+/.test(location.hash));
  return page.url().match(/#\/match\/(\d+)/)[1];
}

/// Click what the match page shows (the board first) at every turn until the result
/// shows; `beforeClick(clicks so far)` runs before each click. The clicks, and how many
/// were on the board.
export async function playToTheResult(page, ruleset, beforeClick = async () => {}) {
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
    // The result counts as something to wait for: otherwise the end of every match
    // cost the full 5 s below.
    const anything = page.locator(
      '[data-testid="board"] [data-testid^="board-"], [data-testid="move"], [data-testid="result"]').first();
    try {
      await anything.waitFor({ timeout: 5000 });
    } catch {
      continue; // the bot is thinking: look again
    }
    if (await result.isVisible()) break;
    let move = page.getByTestId('move').first();
    let fromBoard = false;
    for (const kind of ['board-move', 'board-select', 'board-pass']) {
      const found = board.getByTestId(kind);
      if ((await found.count()) > 0) {
        [move, fromBoard] = [found.first(), true];
        break;
      }
    }
    await beforeClick(clicks);
    await move.click().catch(() => {}); // the list may re-render under the click
    clicks += 1;
    if (fromBoard) boardClicks += 1;
  }
  return { clicks, boardClicks };
}
