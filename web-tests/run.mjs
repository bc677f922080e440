// Browser tests of the web board and the playground: headless Chromium, driven by
// playwright-core, against a real `ply serve` that this script starts (and kills and starts
// again, to test reconnecting).
//
//   node web-tests/run.mjs --ply target/debug/ply [--packs rulesets] [--only NAME]
//
// Exits 0 when every scenario passed; otherwise prints what failed and exits 1. It fails,
// never skips, when the browser or playwright-core cannot start, saying what to install.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { boardShot, shippedPacks } from './boards.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));
const ply = resolve(args.ply || join(here, '../target/debug/ply'));
const packs = resolve(args.packs || join(here, '../rulesets'));
const chromiumPath = process.env.PLY_CHROMIUM || '/usr/bin/chromium';

let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch (e) {
  console.error(`error: playwright-core cannot be loaded (${e.message}); run \`npm ci\` in web-tests/`);
  process.exit(1);
}

// ---- The server ---------------------------------------------------------------------------

const work = mkdtempSync(join(tmpdir(), 'ply-web-'));
const db = join(work, 'games.db');
let server = null;

/** Starts `ply serve` (on `port`, or any free one); resolves to its base URL. */
function startServer(port = 0) {
  return new Promise((ok, fail) => {
    const child = spawn(ply, ['serve', '--addr', `127.0.0.1:${port}`, '--db', db, '--packs', packs],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) { server = { child, url: m[1] }; ok(m[1]); }
    });
    child.on('error', (e) => fail(new Error(`cannot start ${ply}: ${e.message}`)));
    child.on('exit', (code) => { if (!server || server.child !== child) fail(new Error(`ply serve exited (${code}): ${err}`)); });
  });
}

function killServer() {
  return new Promise((ok) => {
    const { child } = server;
    child.on('exit', () => ok());
    child.kill('SIGKILL');
  });
}

async function api(method, path, body) {
  const res = await fetch(server.url + path, {
    method, headers: body ? { 'content-type': 'application/json' } : {}, body: body && JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch (e) { /* text */ }
  return { status: res.status, body: json ?? text };
}

// ---- Pages --------------------------------------------------------------------------------

let browser;
try {
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
} catch (e) {
  console.error(`error: headless Chromium cannot start from ${chromiumPath} (${e.message.split('\n')[0]}); ` +
    'install it (Debian: `apt-get install -y chromium`) or set PLY_CHROMIUM');
  process.exit(1);
}

const problems = [];
const contexts = [];
async function newPage(viewport = { width: 1100, height: 800 }) {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // Refused requests (4xx) and connections refused while the server is down are expected;
  // any other error in the console is a problem.
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 4\d\d|net::ERR_CONNECTION_REFUSED/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  return page;
}

/** Waits until `fn(arg)` holds in the page. (Polled with `evaluate`: the pages' Content
 * Security Policy forbids the string evaluation that `waitForFunction` uses in some
 * playwright versions, and the tests keep that policy in force.) */
async function until(page, fn, arg, timeout = 15000) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await page.evaluate(fn, arg)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${fn} (${arg})`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

/** Waits until the page shows version `v` (or later). */
async function atVersion(page, v) {
  await until(page, (v) => Number(document.body.dataset.version) >= v, v);
}

/** The pieces a page shows, as the server's `board.cells` has them (holes `null`). */
async function shownBoard(page) {
  return page.evaluate(() => {
    const rows = Number(getComputedStyle(document.getElementById('board')).getPropertyValue('--rows'));
    const cols = Number(getComputedStyle(document.getElementById('board')).getPropertyValue('--cols'));
    const cells = Array.from({ length: rows }, () => Array(cols).fill(null));
    document.querySelectorAll('.cell').forEach((b) => { cells[b.dataset.row][b.dataset.col] = b.dataset.piece; });
    return cells;
  });
}

async function sameAsServer(page, id) {
  const { body } = await api('GET', `/games/${id}`);
  assert.deepEqual(await shownBoard(page), body.board.cells, 'the page shows the server\'s board');
  assert.equal(await page.evaluate(() => Number(document.body.dataset.version)), body.version);
  return body;
}

/** Enters a move by clicking its cells one by one in `page`; waits for the new version. */
async function play(page, path, version) {
  for (const cell of path) await page.click(`.cell[data-cell="${cell}"]`);
  try {
    await atVersion(page, version + 1);
  } catch (e) {
    // A complete move that could go on: finish it where it is.
    await page.click(`.cell[data-cell="${path[path.length - 1]}"]`);
    await atVersion(page, version + 1);
  }
}

async function openSeats(id, seats) {
  const pages = {};
  for (const [name, token] of Object.entries(seats)) {
    pages[name] = await newPage();
    await pages[name].goto(`${server.url}/?game=${id}#token=${token}`);
    await pages[name].waitForSelector(`#you:text("You play ${name}.")`);
  }
  return pages;
}

/** axe-core's audit of the page as it stands: the violations of impact critical or serious,
 *  as `rule (n nodes)`. The script is evaluated through the debugging protocol, which the
 *  page's Content Security Policy does not govern; the policy stays in force for the page. */
let axeSource = null;
async function audit(page) {
  if (!axeSource) {
    try {
      axeSource = readFileSync(join(here, 'node_modules/axe-core/axe.min.js'), 'utf8');
    } catch (e) {
      throw new Error(`axe-core cannot be read (${e.message}); run \`npm ci\` in web-tests/`);
    }
  }
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help,
      first: v.nodes[0] && v.nodes[0].html }));
  });
  return found.filter((v) => v.impact === 'critical' || v.impact === 'serious');
}

// ---- Scenarios ----------------------------------------------------------------------------

const scenarios = {
  async 'a whole game of Cats and Rabbits with multi-hop captures, two pages'() {
    const { body: g } = await api('POST', '/games', { pack: 'cats_rabbits', options: { multi_hop: true } });
    const pages = await openSeats(g.id, g.seats);
    let seed = 3;
    const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    let st = g;
    let hops = 0;
    while (st.status === 'playing') {
      assert.ok(st.version < 300, 'the game ends');
      const paths = st.legal_paths;
      const longest = Math.max(...paths.map((p) => p.length));
      const pick = st.to_move === 'CAT' && longest >= 3
        ? paths.find((p) => p.length === longest)
        : paths[Math.floor(rnd() * paths.length)];
      if (pick.length >= 3) hops++;
      await play(pages[st.to_move], pick, st.version);
      st = (await api('GET', `/games/${g.id}`)).body;
      if (pick.length >= 3) assert.ok(st.moves[st.moves.length - 1].includes('x'), 'a multi-hop capture');
    }
    assert.ok(hops >= 1, 'a multi-hop capture was entered cell by cell');
    for (const p of Object.values(pages)) {
      await atVersion(p, st.version);
      await sameAsServer(p, g.id);
      assert.match(await p.textContent('#status'), /Game over: (CAT|RABBIT) wins/);
    }
    // The record downloads, and `ply replay` agrees with it.
    const page = pages.CAT;
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#record')]);
    const file = join(work, 'cats.txt');
    await download.saveAs(file);
    // The record names its pack by file name (`Pack: cats_rabbits.toml`): replayed from the
    // folder above the packs, it is found in rulesets/ without --pack.
    const replayed = execFileSync(ply, ['replay', file], { cwd: dirname(packs), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.match(replayed, /Game over: (CAT|RABBIT) wins/);
    return `${st.moves.length} moves, ${hops} multi-hop captures`;
  },

  async 'a game of Jungle with a river jump, two pages; an illegal try shows why'() {
    const { body: g } = await api('POST', '/games', { pack: 'jungle' });
    const pages = await openSeats(g.id, g.seats);
    // An illegal try: the elephant into the water. The reason is the kernel's; nothing moves.
    const before = await shownBoard(pages.A);
    await pages.A.click('.cell[data-cell="e7"]');
    assert.ok(await pages.A.$eval('.cell[data-cell="e7"]', (b) => b.classList.contains('selected')));
    const targets = await pages.A.$$eval('.cell.target', (bs) => bs.map((b) => b.dataset.cell).sort());
    assert.deepEqual(targets, ['d7', 'e8', 'f7'], 'the legal targets of e7 are shown');
    await pages.A.click('.cell[data-cell="e6"]');
    await until(pages.A, () => document.body.dataset.refusals === '1');
    const why = await pages.A.textContent('#message');
    assert.equal(why, 'Refused: AW cannot go e7-e6: rule `only-swimmers-in-water` forbids entering that cell', why);
    assert.deepEqual(await shownBoard(pages.A), before, 'the illegal try changed nothing');
    assert.equal((await api('GET', `/games/${g.id}`)).body.version, 0);
    // The record of examples/jungle_game.txt: the tiger jumps the river (g6-d6), then wins.
    const moves = 'g7-f7 f2-f3 b8-c8 a3-b3 g9-g8 g3-g4 g8-g7 a1-b1 f8-e8 b1-c1 g7-g6 g1-g2 g6-d6 c1-c2 ' +
      'd6-d5 g4-f4 d5-d4 f4-f5 d4-d3 c2-d2 d3xd2 f5-e5 d2-d1';
    let st = g;
    for (const m of moves.split(' ')) {
      const path = m.split(/[-x]/);
      await play(pages[st.to_move], path, st.version);
      st = (await api('GET', `/games/${g.id}`)).body;
      if (m === 'g6-d6') {
        for (const p of Object.values(pages)) {
          await atVersion(p, st.version);
          const last = await p.$$eval('.cell.last', (bs) => bs.map((b) => b.dataset.cell).sort());
          assert.deepEqual(last, ['d6', 'g6'], 'the river jump is marked as the last move');
          assert.equal(await p.getAttribute('.cell[data-cell="d6"]', 'data-piece'), 'AT');
        }
      }
    }
    assert.equal(st.status, 'over');
    assert.equal(st.winner, 'A');
    for (const p of Object.values(pages)) {
      await atVersion(p, st.version);
      await sameAsServer(p, g.id);
      // Why it ended: the tiger reached the den (the pack's rule `[end.den]`).
      assert.equal(await p.textContent('#status'), 'Game over: A wins (den).');
    }
    assert.deepEqual([st.end_reason, st.end_rule], ['rule', 'den']);
    return `${st.moves.length} moves`;
  },

  async 'a page that loses its connection reconnects and catches up; a move taken back by agreement'() {
    const { body: g } = await api('POST', '/games', { pack: 'jungle' });
    const pages = await openSeats(g.id, g.seats);
    await play(pages.A, ['a7', 'a6'], 0);
    await atVersion(pages.B, 1);
    const port = new URL(server.url).port;
    await killServer();
    await until(pages.B, () => document.body.dataset.connected === 'false');
    await pages.B.waitForSelector('#connection:text("reconnecting")');
    // A move tried while the server is away says so, and the words go once it is back.
    await pages.B.click('.cell[data-cell="a3"]');
    await pages.B.click('.cell[data-cell="a4"]');
    await pages.B.waitForSelector('#message:text("the server cannot be reached")');
    // Down long enough for some attempts to reconnect to fail.
    await new Promise((ok) => setTimeout(ok, 800));
    await startServer(port);
    // A move made while B is away (through the API, with B's own token)...
    const moved = await api('POST', `/games/${g.id}/moves`, { token: g.seats.B, version: 1, move: 'a3-a4' });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    // ... shows in both pages once they are back, and B still holds its seat.
    for (const p of Object.values(pages)) {
      await atVersion(p, 2);
      await until(p, () => document.body.dataset.connected === 'true');
      await sameAsServer(p, g.id);
    }
    assert.equal(await pages.B.textContent('#message'), '', 'the unreachable server is no longer mentioned');
    await play(pages.A, ['a6', 'a5'], 2);
    await play(pages.B, ['g3', 'g4'], 3);
    for (const p of Object.values(pages)) { await atVersion(p, 4); await sameAsServer(p, g.id); }
    assert.equal(await pages.B.textContent('#you'), 'You play B.');
    // B asks to take back g3-g4; A sees the request and agrees.
    await pages.B.click('#undo-ask');
    await atVersion(pages.A, 5);
    assert.match(await pages.A.textContent('#undo-note'), /B asks to take back g3-g4/);
    assert.ok(await pages.B.isHidden('#undo-accept'), 'one cannot accept one\'s own request');
    await pages.A.click('#undo-accept');
    for (const p of Object.values(pages)) {
      await atVersion(p, 6);
      const st = await sameAsServer(p, g.id);
      assert.deepEqual(st.moves, ['a7-a6', 'a3-a4', 'a6-a5']);
      assert.equal(await p.getAttribute('.cell[data-cell="g3"]', 'data-piece'), 'BR');
    }
  },

  async 'a draw offered, declined by a move, offered and refused; then a resignation, two pages'() {
    const { body: g } = await api('POST', '/games', { pack: 'jungle' });
    const pages = await openSeats(g.id, g.seats);
    const { A, B } = pages;
    assert.ok(await A.isVisible('#draw-offer') && await A.isVisible('#resign'));
    assert.ok(await A.isHidden('#draw-accept') && await A.isHidden('#resign-confirm'));
    // A offers; B sees the offer and may accept or decline; A may only withdraw it.
    await A.click('#draw-offer');
    await atVersion(B, 1);
    assert.equal(await B.textContent('#draw-note'), 'A offers a draw.');
    assert.ok(await B.isVisible('#draw-accept') && await B.isVisible('#draw-decline'));
    assert.ok(await A.isHidden('#draw-accept'), 'one cannot accept one\'s own offer');
    assert.equal(await A.textContent('#draw-decline'), 'Withdraw the offer');
    // A moves, by dragging the rat (the targets show while it is carried): the offer stands.
    await A.hover('.cell[data-cell="a7"]');
    await A.mouse.down();
    const to = await A.$eval('.cell[data-cell="a6"]', (b) => { const r = b.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; });
    await A.mouse.move(to.x, to.y - 20, { steps: 4 });
    assert.deepEqual(await A.$$eval('.cell.target', (bs) => bs.map((b) => b.dataset.cell).sort()), ['a6', 'a8', 'b7']);
    await A.mouse.move(to.x, to.y, { steps: 2 });
    await A.mouse.up();
    await atVersion(A, 2);
    assert.deepEqual((await api('GET', `/games/${g.id}`)).body.moves, ['a7-a6'], 'dragged a7 to a6');
    // B moves: declined.
    await atVersion(B, 2);
    assert.equal(await B.textContent('#draw-note'), 'A offers a draw.');
    await play(B, ['a3', 'a4'], 2);
    await atVersion(A, 3);
    assert.equal(await A.textContent('#draw-note'), '');
    assert.equal((await api('GET', `/games/${g.id}`)).body.draw_offer, null);
    // Offered by B, declined by A with the button.
    await B.click('#draw-offer');
    await atVersion(A, 4);
    await A.click('#draw-decline');
    for (const p of [A, B]) { await atVersion(p, 5); assert.equal(await p.textContent('#draw-note'), ''); }
    // Resigning takes a second click; the first can be taken back.
    await B.click('#resign');
    assert.ok(await B.isVisible('#resign-confirm'));
    await B.click('#resign');
    assert.ok(await B.isHidden('#resign-confirm'), 'Keep playing hides the confirmation');
    assert.equal((await api('GET', `/games/${g.id}`)).body.version, 5, 'nothing was sent');
    await B.click('#resign');
    await B.click('#resign-confirm');
    for (const p of [A, B]) {
      await atVersion(p, 6);
      await sameAsServer(p, g.id);
      assert.equal(await p.textContent('#status'), 'Game over: A wins: B resigned.');
      assert.equal(await p.evaluate(() => document.body.dataset.endReason), 'resignation');
      for (const b of ['#draw-offer', '#draw-accept', '#resign', '#resign-confirm', '#undo-ask']) {
        assert.ok(await p.isHidden(b), `${b} is hidden once the game is over`);
      }
    }
    const st = (await api('GET', `/games/${g.id}`)).body;
    assert.deepEqual([st.status, st.winner, st.end_reason], ['over', 'A', 'resignation']);
    // The page of the game as it ended passes the audit too.
    const found = await audit(A);
    assert.deepEqual(found, [], `axe on the resigned game: ${JSON.stringify(found)}`);
  },

  async 'a game with clocks: chosen in the form, counting down in the page, a flag falls'() {
    // The form's time control reaches the server.
    const setupPage = await newPage();
    await setupPage.goto(`${server.url}/`);
    await setupPage.waitForSelector('#pack option', { state: 'attached' });
    await setupPage.selectOption('#pack', 'cats_rabbits');
    await setupPage.selectOption('#clock', '180000+2000');
    await setupPage.click('#create');
    await setupPage.waitForSelector('#you:text("You play RABBIT.")');
    const id = new URL(setupPage.url()).searchParams.get('game');
    const made = (await api('GET', `/games/${id}`)).body;
    assert.deepEqual(made.clock.control, { initial_ms: 180000, increment_ms: 2000 });
    assert.ok(await setupPage.isVisible('#clocks'));
    assert.equal(await setupPage.getAttribute('.clock[data-player="CAT"]', 'class'), 'clock', 'CAT\'s clock stands');
    assert.match(await setupPage.textContent('.clock[data-player="CAT"]'), /^CAT 3:00$/);
    assert.ok(await setupPage.$eval('.clock[data-player="RABBIT"]', (li) => li.classList.contains('running')));
    // The running clock counts down in the page.
    const first = await setupPage.$eval('.clock[data-player="RABBIT"]', (li) => Number(li.dataset.ms));
    await until(setupPage, (before) => Number(document.querySelector('.clock[data-player="RABBIT"]').dataset.ms) < before - 300, first);
    // A game of 1.5 s each that nobody plays: RABBIT's flag falls, the server says so.
    const { body: g } = await api('POST', '/games', { pack: 'cats_rabbits', clock: { initial_ms: 1500 } });
    const pages = await openSeats(g.id, g.seats);
    for (const p of Object.values(pages)) {
      await until(p, () => document.body.dataset.endReason === 'time');
      assert.equal(await p.textContent('#status'), 'Game over: CAT wins: RABBIT\'s time ran out.');
      assert.equal(await p.textContent('.clock[data-player="RABBIT"] .time'), '0:00.0');
      assert.ok(await p.isHidden('#resign'));
    }
    const st = (await api('GET', `/games/${g.id}`)).body;
    assert.deepEqual([st.status, st.winner, st.end_reason], ['over', 'CAT', 'time']);
    const found = await audit(pages.CAT);
    assert.deepEqual(found, [], `axe on a game with clocks: ${JSON.stringify(found)}`);
  },

  async 'a whole game with clocks in two pages: the clocks change hands, a promotion is picked, checkmate stops them'() {
    // A chess ending pasted in the playground and started there with clocks of 3 minutes and
    // 2 s a move: White's king and pawn against the lone king, mate by a promotion on ply 7.
    const text = 'extends = "chess.toml"\n[setup.White]\nKing = "c5"\nQueen = ""\nRook = ""\nBishop = ""\nKnight = ""\nPawn = "e5"\n' +
      '[setup.Black]\nKing = "a8"\nQueen = ""\nRook = ""\nBishop = ""\nKnight = ""\nPawn = ""\n';
    const control = { initial_ms: 180000, increment_ms: 2000 };
    const ground = await newPage();
    await ground.goto(`${server.url}/play`);
    await ground.waitForSelector('#verdict.ok');
    await ground.fill('#pack-text', text);
    await until(ground, () => document.getElementById('verdict').classList.contains('ok')
      && document.getElementById('show').textContent.includes('2WK1WP3'));
    await ground.selectOption('#play-clock', '180000+2000');
    await ground.click('#start');
    await ground.waitForSelector('.seat-link');
    const id = await ground.evaluate(() => document.body.dataset.game);
    const g = (await api('GET', `/games/${id}`)).body;
    assert.deepEqual(g.clock.control, control, 'the playground\'s time control reaches the server');
    const pages = {};
    for (const seat of ['White', 'Black']) {
      pages[seat] = await newPage();
      await pages[seat].goto(await ground.getAttribute(`.seat-link[data-seat="${seat}"]`, 'href'));
      await pages[seat].waitForSelector(`#you:text("You play ${seat}.")`);
    }
    const running = (p) => p.$$eval('.clock.running', (lis) => lis.map((li) => li.dataset.player));
    const game = [['White', ['c5', 'b6']], ['Black', ['a8', 'b8']], ['White', ['e5', 'e6']], ['Black', ['b8', 'a8']],
      ['White', ['e6', 'e7']], ['Black', ['a8', 'b8']]];
    let v = 0;
    for (const [who, path] of game) {
      assert.deepEqual(await running(pages[who]), [who], `${who}'s clock runs while ${who} is to move`);
      await play(pages[who], path, v++);
      const st = (await api('GET', `/games/${id}`)).body;
      const other = who === 'White' ? 'Black' : 'White';
      assert.equal(st.clock.running, other, 'the clock changes hands with the move');
      // The mover's time: what it had, less its thinking, plus the increment; never more than
      // the increments it earned.
      const mine = st.clock.remaining_ms[st.players.indexOf(who)];
      assert.ok(mine <= control.initial_ms + control.increment_ms * Math.ceil(v / 2), `${who} ${mine}`);
      assert.ok(mine > control.initial_ms - 60000, `${who} ${mine}`);
      for (const p of Object.values(pages)) await atVersion(p, v);
      assert.deepEqual(await running(pages[who]), [other]);
    }
    // The pawn reaches the last rank: the page offers the kinds, the queen is picked, and mates.
    await pages.White.click('.cell[data-cell="e7"]');
    await pages.White.click('.cell[data-cell="e8"]');
    await pages.White.waitForSelector('#promote:not([hidden])');
    await pages.White.click('.promote-choice[data-letter="Q"]');
    for (const p of Object.values(pages)) {
      await atVersion(p, v + 1);
      await until(p, () => document.body.dataset.endReason === 'rule');
      assert.equal(await p.textContent('#status'), 'Game over: White wins (checkmate).');
      assert.deepEqual(await running(p), [], 'no clock runs once the game is over');
      assert.ok(await p.isHidden('#resign'));
    }
    const st = await sameAsServer(pages.Black, id);
    assert.deepEqual([st.status, st.winner, st.end_reason, st.end_rule, st.clock.running], ['over', 'White', 'rule', 'checkmate', null]);
    assert.match(st.moves[6], /^e7-e8=Q/);
    assert.equal(await pages.Black.getAttribute('.cell[data-cell="e8"]', 'data-piece'), 'WQ');
    // The stopped clocks stand still in the page.
    const shown = await pages.White.$$eval('.clock', (lis) => lis.map((li) => li.dataset.ms));
    await pages.White.waitForTimeout(300);
    assert.deepEqual(await pages.White.$$eval('.clock', (lis) => lis.map((li) => li.dataset.ms)), shown);
    // The record holds the whole game and its end.
    const record = await api('GET', `/games/${id}/record`);
    assert.equal(record.status, 200);
    assert.match(String(record.body), /e7-e8=Q/);
    const found = await audit(pages.White);
    assert.deepEqual(found, [], `axe on a finished game with clocks: ${JSON.stringify(found)}`);
  },

  async 'a phone-sized page is played with the keyboard alone'() {
    const { body: g } = await api('POST', '/games', { pack: 'jungle' });
    const page = await newPage({ width: 390, height: 844 });
    await page.goto(`${server.url}/?game=${g.id}#token=${g.seats.A}`);
    await page.waitForSelector('#you:text("You play A.")');
    const box = await page.$eval('#board', (b) => b.getBoundingClientRect().toJSON());
    assert.ok(box.right <= 390 && box.width >= 300, `the board fills the phone's width: ${JSON.stringify(box)}`);
    // Tab to the board (its one focusable cell, a9), then arrows and Enter: a7-a6.
    await page.focus('.cell[tabindex="0"]');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.cell), 'a9');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.cell), 'a7');
    assert.match(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), /^a7, A Rat \(AR\)/);
    await page.keyboard.press('Enter');
    assert.deepEqual(await page.$$eval('.cell.target', (bs) => bs.map((b) => b.dataset.cell).sort()), ['a6', 'a8', 'b7']);
    await page.keyboard.press('Escape');
    assert.equal(await page.$$eval('.cell.target', (bs) => bs.length), 0, 'Escape clears the choice');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await atVersion(page, 1);
    await sameAsServer(page, g.id);
    assert.deepEqual(await page.$$eval('.cell.last', (bs) => bs.map((b) => b.dataset.cell).sort()), ['a6', 'a7']);
    // Turned upside down, the board shows the same position, g1 first.
    await page.click('#flip');
    assert.equal(await page.$eval('.cell', (b) => b.dataset.cell), 'g1');
    await sameAsServer(page, g.id);
    assert.equal(await page.$$eval('.cell.last', (bs) => bs.length), 2);
  },

  async 'a placement and a move with a second part are entered by clicking'() {
    // Connect Four: one click places (the server says where the piece may go).
    const { body: c4 } = await api('POST', '/games', { pack: 'connect_four' });
    const first = c4.players[0];
    const page = await newPage();
    await page.goto(`${server.url}/?game=${c4.id}#token=${c4.seats[first]}`);
    await page.waitForSelector(`#you:text("You play ${first}.")`);
    const [cell] = c4.legal_paths.find((p) => p.length === 1);
    await page.click(`.cell[data-cell="${cell}"]`);
    await atVersion(page, 1);
    await sameAsServer(page, c4.id);
    // A cell where nothing may be placed is tried all the same, and refused with a reason.
    const st1 = (await api('GET', `/games/${c4.id}`)).body;
    const seat2 = await newPage();
    await seat2.goto(`${server.url}/?game=${c4.id}#token=${c4.seats[c4.players[1]]}`);
    await seat2.waitForSelector(`#you:text("You play ${c4.players[1]}.")`);
    const legal = new Set(st1.legal_paths.map((p) => p[0]));
    const wrong = await seat2.$$eval('.cell', (bs) => bs.map((b) => b.dataset.cell));
    await seat2.click(`.cell[data-cell="${wrong.find((c) => !legal.has(c))}"]`);
    await until(seat2, () => document.body.dataset.refusals === '1');
    // In words a player reads: the pack's rule by its name, not a raw expression.
    assert.match(await seat2.textContent('#message'),
      /^Refused: \S+ cannot be placed on [a-g]\d: place rule `lowest-empty-cell` forbids placing there$/);
    assert.equal((await api('GET', `/games/${c4.id}`)).body.version, 1);
    // Amazons: a queen move, then the arrow's cell, three clicks.
    const { body: am } = await api('POST', '/games', { pack: 'amazons' });
    const a = await newPage();
    await a.goto(`${server.url}/?game=${am.id}#token=${am.seats[am.players[0]]}`);
    await a.waitForSelector(`#you:text("You play ${am.players[0]}.")`);
    // A move past the ones the state lists: the board fetches the rest, a page at a time.
    assert.ok(am.legal_count > am.legal_moves.length, 'Amazons has more moves than a state lists');
    const { body: tail } = await api('GET', `/games/${am.id}/legal?offset=${am.legal_count - 1}`);
    const path = tail.paths[0];
    assert.equal(path.length, 3);
    await until(a, (n) => document.body.dataset.legal === String(n), am.legal_count);
    await play(a, path, 0);
    const st = await sameAsServer(a, am.id);
    assert.deepEqual(st.last_path, path);
  },

  async 'boards by family: squares, points and lines, images, check, placement targets'() {
    // Chess: checkered, a1 dark, drawn pieces; 1. e4 f6 2. Qh5+ shows the check on e8.
    const { body: g } = await api('POST', '/games', { pack: 'chess' });
    const [white, black] = g.players;
    const page = await newPage();
    await page.goto(`${server.url}/?game=${g.id}#token=${g.seats[black]}`);
    await page.waitForSelector(`#you:text("You play ${black}.")`);
    assert.equal(await page.getAttribute('#board', 'data-style'), 'checkered');
    assert.ok(await page.$eval('.cell[data-cell="a1"]', (b) => b.classList.contains('dark')));
    assert.ok(await page.$eval('.cell[data-cell="h1"]', (b) => b.classList.contains('light')));
    assert.equal(await page.$eval('.cell[data-cell="e1"] .piece-img text', (t) => t.textContent), '♚');
    assert.equal(await page.$$eval('.mark', (ms) => ms.length), 0, 'the rules\' zones are not drawn on a chess board');
    let v = 0;
    for (const m of ['e2-e4', 'f7-f6', 'd1-h5']) {
      const seat = v % 2 === 0 ? white : black;
      const r = await api('POST', `/games/${g.id}/moves`, { token: g.seats[seat], version: v++, move: m });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    await atVersion(page, 3);
    assert.deepEqual(await page.$$eval('.cell.check', (bs) => bs.map((b) => b.dataset.cell)), ['e8']);
    assert.match(await page.textContent('#status'), /in check/);
    assert.match(await page.getAttribute('.cell[data-cell="e8"]', 'aria-label'), /in check/);
    assert.deepEqual(await page.$$eval('.cell.last', (bs) => bs.map((b) => b.dataset.cell).sort()), ['d1', 'h5']);
    await page.click('.cell[data-cell="g7"]');
    assert.deepEqual(await page.$$eval('.cell.target', (bs) => bs.map((b) => b.dataset.cell)), ['g6'], 'only the block');
    // Xiangqi: points and lines, the two palaces crossed, the river open; glyphs by owner.
    const { body: x } = await api('POST', '/games', { pack: 'xiangqi' });
    const xp = await newPage();
    await xp.goto(`${server.url}/?game=${x.id}`);
    await xp.waitForSelector('#you:text("You are watching.")');
    assert.equal(await xp.getAttribute('#board', 'data-style'), 'intersections');
    const lines = await xp.$eval('svg.lines', (s) => ({
      lines: s.querySelectorAll('line').length, river: s.querySelectorAll('rect.band').length,
    }));
    // 10 rows, 2 edge columns whole, 7 inner columns in two parts, 2 diagonals a palace.
    assert.deepEqual(lines, { lines: 10 + 2 + 14 + 4, river: 1 });
    assert.equal(await xp.$eval('.cell[data-cell="e1"] .piece-img text', (t) => t.textContent), '帥');
    assert.equal(await xp.$eval('.cell[data-cell="e10"] .piece-img text', (t) => t.textContent), '將');
    // Connect Four marks where a disc may go; Gomoku, where any empty point may, does not.
    const { body: c4 } = await api('POST', '/games', { pack: 'connect_four' });
    const cp = await newPage();
    await cp.goto(`${server.url}/?game=${c4.id}#token=${c4.seats[c4.players[0]]}`);
    await cp.waitForSelector(`#you:text("You play ${c4.players[0]}.")`);
    assert.equal(await cp.getAttribute('#board', 'data-style'), 'holes');
    assert.deepEqual(await cp.$$eval('.cell.place', (bs) => bs.map((b) => b.dataset.cell).sort()),
      ['a1', 'b1', 'c1', 'd1', 'e1', 'f1', 'g1']);
    await cp.click('.cell[data-cell="d1"]');
    await atVersion(cp, 1);
    assert.equal(await cp.$$eval('.cell.place', (bs) => bs.length), 0, 'not one\'s turn: nothing marked');
    const { body: go } = await api('POST', '/games', { pack: 'gomoku' });
    const gp = await newPage();
    await gp.goto(`${server.url}/?game=${go.id}#token=${go.seats[go.players[0]]}`);
    await gp.waitForSelector(`#you:text("You play ${go.players[0]}.")`);
    assert.equal(await gp.$$eval('.cell.place', (bs) => bs.length), 0);
    assert.equal(await gp.$$eval('.cell.star', (bs) => bs.length), 5);
    // Nine Men's Morris: lines only between neighbouring points and along the links, the
    // three squares and the four lines between them: 24 points, 32 segments, no frame.
    const { body: mm } = await api('POST', '/games', { pack: 'nine_mens_morris' });
    const mp = await newPage();
    await mp.goto(`${server.url}/?game=${mm.id}`);
    await mp.waitForSelector('#you:text("You are watching.")');
    assert.deepEqual(await mp.$eval('svg.lines', (s) => [s.querySelectorAll('line').length, s.querySelectorAll('.frame').length]), [32, 0]);
    assert.equal(await mp.$$eval('.cell', (bs) => bs.length), 24);
    // Hex: hexagons in a rhombus, each row half a cell to the right of the row below, so a
    // cell touches its nw and se neighbours; turned, the rhombus is turned with it.
    const { body: hx } = await api('POST', '/games', { pack: 'hex' });
    const hp = await newPage();
    await hp.goto(`${server.url}/?game=${hx.id}`);
    await hp.waitForSelector('#you:text("You are watching.")');
    assert.equal(await hp.getAttribute('#board', 'data-style'), 'hexes');
    const box = async (cell) => hp.$eval(`.cell[data-cell="${cell}"]`, (b) => { const r = b.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; });
    const touch = async (a, b) => {
      const [ax, ay, w, h] = await box(a);
      const [bx, by] = await box(b);
      return Math.hypot(ax - bx, ay - by) / w;
    };
    const [, , w, h] = await box('a1');
    assert.ok(Math.abs(h / w - 1.1547) < 0.02, `a hexagon's height is 2/sqrt(3) of its width: ${w} x ${h}`);
    for (const [a, b] of [['f6', 'g6'], ['f6', 'f7'], ['f6', 'e7'], ['f6', 'g5'], ['f6', 'f5'], ['f6', 'e6']]) {
      assert.ok(Math.abs(await touch(a, b) - 1) < 0.02, `${a} and ${b} are neighbours, a cell apart: ${await touch(a, b)}`);
    }
    for (const b of ['g7', 'e5']) assert.ok(await touch('f6', b) > 1.5, `f6 and ${b} are not neighbours`);
    const [a11x] = await box('a11');
    const [a1x] = await box('a1');
    assert.ok(Math.abs((a11x - a1x) / w - 5) < 0.05, 'row 11 sits five cells to the right of row 1');
    await hp.click('#flip');
    await until(hp, () => document.querySelector('.cell[data-cell="a1"]').getBoundingClientRect().y
      < document.querySelector('.cell[data-cell="a11"]').getBoundingClientRect().y);
    for (const [a, b] of [['f6', 'e7'], ['f6', 'g5']]) {
      assert.ok(Math.abs(await touch(a, b) - 1) < 0.02, `turned, ${a} and ${b} are still neighbours`);
    }
    // A designer's pack with no [display] is drawn plain, with letters on tokens.
    const { body: j } = await api('POST', '/games', { pack: 'jungle' });
    const jp = await newPage();
    await jp.goto(`${server.url}/?game=${j.id}`);
    await jp.waitForSelector('#you:text("You are watching.")');
    assert.equal(await jp.getAttribute('#board', 'data-style'), 'plain');
    assert.equal(await jp.$eval('.cell[data-cell="a7"] .glyph', (e) => e.dataset.text), 'R');
  },

  async 'axe-core finds no critical or serious violation on any page'() {
    const pages = [];
    const setupPage = await newPage();
    await setupPage.goto(`${server.url}/`);
    await setupPage.waitForSelector('#pack option', { state: 'attached' });
    pages.push(['the setup page', setupPage]);
    const play = await newPage();
    await play.goto(`${server.url}/play?pack=cats_rabbits`);
    await play.waitForSelector('#verdict.ok');
    pages.push(['the playground', play]);
    for (const pack of ['jungle', 'chess', 'xiangqi', 'connect_four', 'othello', 'shogi', 'go9', 'nine_mens_morris', 'hex']) {
      const { body: g } = await api('POST', '/games', { pack });
      const p = await newPage();
      await p.goto(`${server.url}/?game=${g.id}#token=${g.seats[g.players[0]]}`);
      await p.waitForSelector(`#you:text("You play ${g.players[0]}.")`);
      const from = g.legal_paths.find((x) => x.length > 1);
      if (from) await p.click(`.cell[data-cell="${from[0]}"]`);
      pages.push([`a game of ${pack}, a piece chosen`, p]);
    }
    const report = [];
    const bad = [];
    for (const [name, p] of pages) {
      const v = await audit(p);
      report.push(`${name}: ${v.length}`);
      for (const x of v) bad.push(`${name}: ${x.id} (${x.impact}, ${x.nodes} nodes): ${x.help}; first: ${x.first}`);
    }
    assert.deepEqual(bad, [], bad.join('\n'));
    return report.join(', ');
  },

  async 'a promotion is picked in the page; stepping back and forth; the engine is shown thinking; the position string to copy'() {
    // A chess variant with White's one pawn on g7: g7xh8 promotes, to a choice of kinds.
    const { body: g } = await api('POST', '/playground/games', {
      text: 'extends = "chess.toml"\n[setup.White]\nPawn = "g7"\n[setup.Black]\nPawn = "a7:f7 h7"\n',
    });
    const page = await newPage();
    await page.goto(`${server.url}/?game=${g.id}#token=${g.seats.White}`);
    await page.waitForSelector('#you:text("You play White.")');
    assert.equal(await page.inputValue('#position'), g.position, 'the position string is shown');
    await page.click('.cell[data-cell="g7"]');
    await page.click('.cell[data-cell="h8"]');
    await page.waitForSelector('#promote:not([hidden])');
    const letters = await page.$$eval('.promote-choice', (bs) => bs.map((b) => b.dataset.letter));
    assert.deepEqual(letters.slice().sort(), ['B', 'N', 'Q', 'R'], String(letters));
    assert.equal(await page.$eval('.promote-choice[data-letter="N"] text', (t) => t.textContent), '♞');
    // Cancelled, nothing is played; then the knight is chosen.
    await page.click('#promote-cancel');
    assert.ok(await page.isHidden('#promote'));
    assert.equal((await api('GET', `/games/${g.id}`)).body.version, 0);
    await page.click('.cell[data-cell="g7"]');
    await page.click('.cell[data-cell="h8"]');
    await page.click('.promote-choice[data-letter="N"]');
    await atVersion(page, 1);
    const st = await sameAsServer(page, g.id);
    assert.equal(st.moves[0], 'g7xh8=N');
    assert.equal(await page.getAttribute('.cell[data-cell="h8"]', 'data-piece'), 'WN');
    assert.equal(await page.inputValue('#position'), st.position);
    await page.click('#copy-position');
    await page.waitForSelector('#message:text("position string")');
    // Stepping back shows the start (the server's history), and forward shows the move again.
    const black = await api('POST', `/games/${g.id}/moves`, { token: g.seats.Black, version: 1, move: 'a7-a6' });
    assert.equal(black.status, 200, JSON.stringify(black.body));
    await atVersion(page, 2);
    await page.click('#step-back');
    await until(page, () => document.body.dataset.view === '1');
    assert.equal(await page.getAttribute('.cell[data-cell="a6"]', 'data-piece'), '');
    assert.equal(await page.getAttribute('.cell[data-cell="h8"]', 'data-piece'), 'WN');
    assert.match(await page.textContent('#status'), /After move 1, g7xh8=N \(looking back\)/);
    await page.click('#step-start');
    await until(page, () => document.body.dataset.view === '0');
    assert.equal(await page.getAttribute('.cell[data-cell="h8"]', 'data-piece'), 'BR');
    assert.equal(await page.getAttribute('.cell[data-cell="g7"]', 'data-piece'), 'WP');
    assert.equal(await page.inputValue('#position'), g.position);
    await page.click('.cell[data-cell="g7"]');
    assert.match(await page.textContent('#message'), /looking back/);
    await page.click('#step-forward');
    await until(page, () => document.body.dataset.view === '1');
    await page.click('#step-now');
    await until(page, () => document.body.dataset.view === 'now');
    await sameAsServer(page, g.id);
    // An engine's seat: the page says it is thinking while the engine is to move.
    const { body: e } = await api('POST', '/games', { pack: 'jungle', engine: { player: 'mcts:0.5s', seat: 'B' } });
    const ep = await newPage();
    await ep.goto(`${server.url}/?game=${e.id}#token=${e.seats.A}`);
    await ep.waitForSelector('#you:text("You play A.")');
    assert.ok(await ep.isHidden('#thinking'), 'not while the person is to move');
    await play(ep, ['a7', 'a6'], 0);
    await ep.waitForSelector('#thinking:not([hidden])', { timeout: 400 });
    await atVersion(ep, 2);
    assert.ok(await ep.isHidden('#thinking'), 'the engine has moved');
  },

  async 'every shipped board looks as its reviewed picture in docs/boards/'() {
    // boards.mjs photographs each pack a few moves in; docs/boards/ holds the pictures as
    // reviewed (`node web-tests/screenshots.mjs` takes them again). A picture may differ from
    // its review in anti-aliasing only, and in at most MAX_SHARE of its pixels (a target's dot
    // is about 0.05% of a board); what differs is written out to be looked at.
    const MAX_SHARE = 0.0005;
    const { PNG } = await import('pngjs');
    const { default: pixelmatch } = await import('pixelmatch');
    const reviewed = join(here, '../docs/boards');
    const names = shippedPacks(packs);
    const pictures = readdirSync(reviewed).filter((f) => f.endsWith('.png')).map((f) => f.replace(/\.png$/, '')).sort();
    assert.deepEqual(pictures, names, 'a reviewed picture for every shipped pack, and none for a pack that is gone');
    const out = join(tmpdir(), 'ply-board-shots');
    const bad = [];
    let worst = 0;
    for (const name of names) {
      const got = PNG.sync.read(await boardShot(browser, server.url, name));
      const want = PNG.sync.read(readFileSync(join(reviewed, `${name}.png`)));
      let share = 1;
      let diff = null;
      if (got.width === want.width && got.height === want.height) {
        diff = new PNG({ width: got.width, height: got.height });
        share = pixelmatch(got.data, want.data, diff.data, got.width, got.height, { threshold: 0.1 }) / (got.width * got.height);
      }
      worst = Math.max(worst, share);
      if (share > MAX_SHARE) {
        mkdirSync(out, { recursive: true });
        writeFileSync(join(out, `${name}.png`), PNG.sync.write(got));
        if (diff) writeFileSync(join(out, `${name}.diff.png`), PNG.sync.write(diff));
        bad.push(`${name}: ${diff ? `${(share * 100).toFixed(2)}% of the pixels differ` : `${got.width}x${got.height}, reviewed ${want.width}x${want.height}`}`);
      }
    }
    assert.deepEqual(bad, [], `boards that differ from their reviewed pictures (the page's pictures and the differences are in ${out}; ` +
      'if the change is meant, take them again with `node web-tests/screenshots.mjs`, look at them, and commit them)');
    return `${names.length} boards, at most ${(worst * 100).toFixed(3)}% of a picture's pixels differ`;
  },

  async 'a tampered seat link is refused and shows no seat'() {
    const { body: g } = await api('POST', '/games', { pack: 'jungle' });
    const page = await newPage();
    await page.goto(`${server.url}/?game=${g.id}#token=${g.seats.A.replace(/.$/, (c) => (c === '0' ? '1' : '0'))}`);
    await page.waitForSelector('#message:text("refused")');
    assert.equal(await page.textContent('#you'), 'You are watching.');
    const links = await page.$$eval('.seat-link', (as) => as.map((a) => a.href));
    assert.ok(!links.some((h) => h.includes(g.seats.A) || h.includes(g.seats.B)), 'no token is shown');
    await page.click('.cell[data-cell="a7"]');
    await page.click('.cell[data-cell="a6"]');
    assert.equal((await api('GET', `/games/${g.id}`)).body.version, 0, 'nothing was played');
  },

  async 'the playground locates a broken pack, refuses bad input, and plays a fixed pack'() {
    const page = await newPage();
    await page.goto(`${server.url}/play?pack=cats_rabbits`);
    await page.waitForSelector('#verdict.ok');
    const good = await page.inputValue('#pack-text');
    // Broken: a misspelt piece kind in a move pattern.
    const broken = good.replace('hop orthogonal over Rabbit', 'hop orthogonal over Rabit');
    await page.fill('#pack-text', broken);
    await page.waitForSelector('#verdict.bad');
    const line = broken.split('\n').findIndex((l) => l.includes('over Rabit')) + 1;
    const diag = await page.$eval('#diags li.error', (li) => ({ ...li.dataset, text: li.textContent }));
    assert.equal(diag.file, 'pasted.toml');
    assert.equal(Number(diag.line), line, diag.text);
    assert.match(diag.text, /Rabit/);
    assert.match(diag.text, /did you mean `Rabbit`/);
    assert.ok(await page.$eval(`#gutter [data-line="${line}"]`, (d) => d.classList.contains('bad')), 'the line is marked');
    assert.ok(await page.isDisabled('#start'));
    // Clicking the problem puts the caret on its line.
    await page.click('#diags li.error button');
    const caretLine = await page.$eval('#pack-text', (t) => t.value.slice(0, t.selectionStart).split('\n').length);
    assert.equal(caretLine, line);
    // Bad input: a pack too large, and an `extends` out of the server's folder.
    await page.fill('#pack-text', `# ${'x'.repeat(70000)}\n${good}`);
    await page.waitForSelector('#verdict:text("413")');
    await page.fill('#pack-text', `extends = "../Cargo.toml"\n${good}`);
    await page.waitForSelector('#diags li.error:has-text("not the file name of a pack of this server")');
    assert.equal(await page.$eval('#diags li.error', (li) => li.dataset.line), '1');
    // A pack's option chosen, then a pack without it: the option is forgotten, not refused.
    await page.fill('#pack-text', good);
    await page.waitForSelector('#verdict.ok');
    await page.check('#popt-multi_hop');
    await page.waitForSelector('#verdict.ok');
    const jungle = readFileSync(join(packs, 'jungle.toml'), 'utf8');
    await page.fill('#pack-text', jungle);
    await until(page, () => document.getElementById('show').textContent.startsWith('Jungle')
      && document.getElementById('verdict').classList.contains('ok'));
    assert.equal(await page.$$eval('#popt-multi_hop', (i) => i.length), 0, 'the old option is gone');
    // Fixed: a new pack of one's own, extending nothing, renamed.
    await page.fill('#pack-text', good.replace('name = "Cats and Rabbits"', 'name = "Hares"'));
    await until(page, () => document.getElementById('show').textContent.startsWith('Hares'));
    await page.waitForSelector('#verdict.ok');
    assert.match(await page.textContent('#show'), /^Hares/);
    assert.match(await page.textContent('#show'), /Pieces:/);
    await page.selectOption('#play-opponent', 'random');
    await page.click('#start');
    await page.waitForSelector('.seat-link');
    const href = await page.getAttribute('.seat-link', 'href');
    assert.equal(await page.$$eval('.seat-link', (as) => as.length), 1, 'the engine\'s seat has no link');
    const board = await newPage({ width: 390, height: 844 });
    await board.goto(href);
    await board.waitForSelector('#you:text("You play RABBIT.")');
    assert.equal(await board.textContent('#title'), 'Hares');
    await play(board, ['b1', 'b2'], 0);
    await atVersion(board, 2); // the random player answered
    const st = (await api('GET', `/games/${await page.evaluate(() => document.body.dataset.game)}`)).body;
    assert.equal(st.pack.name, 'pasted');
    await until(board, () => document.body.dataset.version === '2');
  },
};

// ---- Running ------------------------------------------------------------------------------

const started = Date.now();
let failed = 0;
try {
  await startServer();
  for (const [name, run] of Object.entries(scenarios)) {
    if (args.only && !name.includes(args.only)) continue;
    const t0 = Date.now();
    try {
      const note = await run();
      console.log(`ok    ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s${note ? `; ${note}` : ''})`);
    } catch (e) {
      failed++;
      console.log(`FAIL  ${name}: ${e.stack || e}`);
    }
    for (const c of contexts.splice(0)) await c.close();
    if (problems.length) {
      failed++;
      console.log(`FAIL  ${name}: the pages reported errors:\n  ${problems.join('\n  ')}`);
      problems.length = 0;
    }
  }
} finally {
  await browser.close();
  if (server) server.child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
console.log(`${failed ? 'FAILED' : 'passed'}: browser tests in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
