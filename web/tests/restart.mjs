// A person's game outlives its server. Run by crates/server/tests/browser.rs: a person
// registers, starts a Tigris & Euphrates game against a house bot and plays a few
// moves; the script then prints `restart the server` and the test stops the server and
// starts it again on the same data and address. The page must say it is reconnecting,
// come back by itself, and the person finishes the game by clicking, as before.
// Environment: ARBITER_URL, SCREENSHOTS. Prints `ok <check>` per check passed (the
// last one `ok finished <match id>`); any failure throws (exit code 1).

import path from 'node:path';
import {
  check, launchChromium, need, playToTheResult, register, startAgainstABot,
} from './person.mjs';

const base = need('ARBITER_URL');
const shots = need('SCREENSHOTS');
// The server goes away after this many of the person's moves: the game is under way.
const RESTART_AT = 4;
// How long the page may take to notice and to come back: the server asks it to wait
// 2 s, and starting again replays the match from its log.
const COMES_BACK_WITHIN_MS = 60_000;
const DESKTOP = { width: 1100, height: 800 };
const PHONE = { width: 390, height: 844 };

const browser = await launchChromium();
const errors = [];
try {
  const page = await browser.newPage({ viewport: DESKTOP });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  // The page logs the lost connection to the console while the server is away; that
  // is expected here, so only page errors count.

  const person = `re${Date.now() % 100000}`;
  await register(page, base, person);
  const id = await startAgainstABot(page, 'tae', null);
  console.log('ok started');

  let restarted = false;
  await playToTheResult(page, 'tae', async (made) => {
    if (restarted || made < RESTART_AT) return;
    restarted = true;
    const notice = page.getByText('server restarting, reconnecting… (your games wait for you)');
    // Waiting starts before the server is told to go, so the notice cannot come and go
    // unseen.
    const shown = notice.waitFor({ timeout: COMES_BACK_WITHIN_MS });
    console.log('restart the server');
    await shown;
    await page.getByTestId('match-offline').filter({ hasText: 'this game waits for you' }).waitFor();
    await page.screenshot({ path: path.join(shots, 'restarting.png'), fullPage: true });
    // And on a phone (the notice is short-lived, so only looked at, not checked).
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: path.join(shots, 'restarting-phone.png'), fullPage: true });
    await page.setViewportSize(DESKTOP);
    console.log('ok the page says it is reconnecting');
    await notice.waitFor({ state: 'hidden', timeout: COMES_BACK_WITHIN_MS });
    // Back, signed in as the same person, on the same match.
    await page.getByTestId('account-name-shown').filter({ hasText: person }).waitFor();
    check(page.url().includes(`#/match/${id}`), `still on match ${id}: ${page.url()}`);
    console.log('ok the page came back by itself');
  });
  check(restarted, 'the game ended before the server was restarted');
  await page.getByTestId('result').waitFor();
  // The replay says where the server went away.
  await page.evaluate((match) => { location.hash = `#/replay/${match}`; }, id);
  const gap = page.getByTestId('resumptions');
  await gap.waitFor();
  check(/went away after step \d+/.test(await gap.innerText()), `the replay shows the gap: ${await gap.innerText()}`);
  await page.screenshot({ path: path.join(shots, 'replay-after-restart.png'), fullPage: true });
  console.log('ok the replay shows the restart');
  await page.setViewportSize(PHONE);
  await gap.waitFor();
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  check(wide <= PHONE.width, `the replay fits a phone's width: ${wide} px wide`);
  await page.screenshot({ path: path.join(shots, 'replay-after-restart-phone.png'), fullPage: true });
  console.log('ok the replay fits a phone');
  check(errors.length === 0, `no errors in the page:\n${errors.join('\n')}`);
  console.log(`ok finished ${id}`);
} finally {
  await browser.close();
}
