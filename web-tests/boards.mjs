// Every shipped pack's board as its page draws it, a few moves in: the one definition of the
// pictures that `screenshots.mjs` writes to docs/boards/ (to be reviewed and committed) and
// that `run.mjs` compares the page with, so that the reviewed images and the test never
// disagree on what is photographed.
import { readdirSync } from 'node:fs';

/** The moves played before each board is photographed, chosen to show what the board draws
 *  (a capture, a check, pieces on both sides of a river); a pack not named here plays its first
 *  legal moves, four of them. */
export const openings = {
  chess: 'e2-e4 f7-f6 d1-h5',
  capablanca: 'e2-e4 e7-e5 f2-f4',
  xiangqi: 'b3-e3 h8-e8 e3xe7',
  gomoku: 'h8 h9 i9 g7 j10',
  othello: 'd3 c5 f6 f5',
  connect_four: 'd1 d2 e1 c1 f1',
  checkers: 'c3-d4 f6-g5 b2-c3',
  amazons: 'd1-d7-g7',
  jungle: 'g7-f7 f2-f3 b8-c8 a3-b3',
};

/** The viewport every board is photographed in. */
export const viewport = { width: 900, height: 820 };

/** The shipped packs' names (the `.toml` files of `packs`), sorted. */
export function shippedPacks(packs) {
  return readdirSync(packs).filter((f) => f.endsWith('.toml')).map((f) => f.replace(/\.toml$/, '')).sort();
}

/** Plays pack `name`'s opening on the server at `url` and photographs its board: the last
 *  move marked and the targets of the first piece that can move (or of a placement) shown.
 *  Resolves to the PNG's bytes. */
export async function boardShot(browser, url, name) {
  const post = async (path, body) => {
    const res = await fetch(url + path, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${name}: POST ${path} answered ${res.status}: ${JSON.stringify(json)}`);
    return json;
  };
  const game = await post('/games', { pack: name });
  let st = game;
  const moves = (openings[name] || '').split(' ').filter((m) => m);
  for (let i = 0; i < (moves.length || 4) && st.status === 'playing'; i++) {
    const move = moves[i] || st.legal_moves[0];
    st = await post(`/games/${game.id}/moves`, { token: game.seats[st.to_move], version: st.version, move });
  }
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/?game=${game.id}#token=${game.seats[st.to_move]}`);
    while (!(await page.evaluate((v) => document.body.dataset.version === String(v), st.version))) {
      await page.waitForTimeout(20);
    }
    const from = st.legal_paths.find((p) => p.length > 1);
    if (from) await page.click(`.cell[data-cell="${from[0]}"]`);
    // The pointer rests in one place for every picture (a hovered cell is drawn differently).
    await page.mouse.move(0, 0);
    await page.waitForTimeout(100);
    return await (await page.$('.board-wrap')).screenshot();
  } finally {
    await context.close();
  }
}
