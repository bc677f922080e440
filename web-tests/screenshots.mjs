// The README's screenshots of the board and the playground, taken in headless Chromium from a
// `ply serve` this script starts:
//
//   cargo build --release && node web-tests/screenshots.mjs --ply target/release/ply
//
// writes docs/board.png and docs/playground.png, and docs/boards/PACK.png: every shipped pack's
// board a few moves in (boards.mjs: its opening, else the first legal moves), as its page draws it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { boardShot, shippedPacks } from './boards.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name, dflt) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : dflt; };
const ply = resolve(arg('ply', join(here, '../target/release/ply')));
const packs = resolve(join(here, '../rulesets'));
const docs = resolve(join(here, '../docs'));
const work = mkdtempSync(join(tmpdir(), 'ply-shots-'));

const child = spawn(ply, ['serve', '--addr', '127.0.0.1:0', '--db', join(work, 'g.db'), '--packs', packs],
  { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((ok) => {
  let out = '';
  child.stdout.on('data', (d) => { out += d; const m = out.match(/listening on (http:\/\/\S+)/); if (m) ok(m[1]); });
});
const api = async (method, path, body) => (await fetch(url + path, {
  method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body),
})).json();

const browser = await chromium.launch({ executablePath: process.env.PLY_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  // The board: Jungle a few moves in, the tiger across the river, a piece chosen.
  const g = await api('POST', '/games', { pack: 'jungle' });
  let v = 0;
  for (const m of 'g7-f7 f2-f3 b8-c8 a3-b3 g9-g8 g3-g4 g8-g7 a1-b1 f8-e8 b1-c1 g7-g6 g1-g2 g6-d6'.split(' ')) {
    const st = await api('GET', `/games/${g.id}`);
    await api('POST', `/games/${g.id}/moves`, { token: g.seats[st.to_move], version: v++, move: m });
  }
  const page = await browser.newPage({ viewport: { width: 1200, height: 820 }, deviceScaleFactor: 1 });
  await page.goto(`${url}/?game=${g.id}#token=${g.seats.B}`);
  while (!(await page.evaluate((v) => document.body.dataset.version === String(v), v))) await page.waitForTimeout(20);
  await page.click('.cell[data-cell="b2"]');
  await page.screenshot({ path: join(docs, 'board.png') });

  // The playground: a variant of Cats and Rabbits with a mistake, located.
  const play = await browser.newPage({ viewport: { width: 1200, height: 820 }, deviceScaleFactor: 1 });
  await play.goto(`${url}/play?pack=cats_rabbits`);
  await play.waitForSelector('#verdict.ok');
  const text = readFileSync(join(packs, 'cats_rabbits.toml'), 'utf8')
    .replace('name = "Cats and Rabbits"', 'name = "Hares and Hounds"')
    .replace('hop orthogonal over Rabbit', 'hop orthogonal over Rabit');
  await play.fill('#pack-text', text);
  await play.waitForSelector('#verdict.bad');
  await play.click('#diags li.error button');
  await play.evaluate(() => window.scrollTo(0, 0));
  await play.screenshot({ path: join(docs, 'playground.png') });
  console.log(`wrote ${join(docs, 'board.png')} and ${join(docs, 'playground.png')}`);

  // Every shipped pack's board (boards.mjs says which moves and what is shown); run.mjs
  // compares the page with these pictures once they are reviewed and committed.
  const shots = join(docs, 'boards');
  mkdirSync(shots, { recursive: true });
  for (const name of shippedPacks(packs)) {
    writeFileSync(join(shots, `${name}.png`), await boardShot(browser, url, name));
  }
  console.log(`wrote the boards in ${shots}`);
} finally {
  await browser.close();
  child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
