// The board: create a game of any pack, then play it. Everything about the rules comes from
// the server: the legal moves as paths of cells (`legal_paths`), the refusal of an illegal try
// (the kernel's reason), the end. The page only draws what it is told.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const gameId = params.get('game');
  const token = new URLSearchParams(location.hash.slice(1)).get('token');

  /** What the page knows. */
  const page = {
    layout: null,
    state: null,
    seat: null, // the player this page plays, once the server confirmed the token
    prefix: [], // the cells of the move being entered
    ws: null,
    retry: 0,
    busy: false,
    flipped: false, // drawn upside down (the last row at the top)
    view: null, // looking back: the number of moves shown (0 the start); null shows now
    history: null, // the server's history of the game, for one version
  };

  if (!gameId) setup(); else open();

  // ---- New game -------------------------------------------------------------------------

  async function setup() {
    $('setup').hidden = false;
    const { status, body } = await Ply.api('GET', '/packs');
    if (status !== 200) { $('setup-error').textContent = Ply.why(body); return; }
    const select = $('pack');
    for (const p of body.packs) select.append(Ply.el('option', { value: p.name, text: `${p.game} (${p.name})` }));
    let readOptions = () => ({});
    const changed = () => {
      const p = body.packs.find((x) => x.name === select.value);
      $('pack-about').textContent = `${p.rows} x ${p.cols}; players ${p.players.join(' and ')}`;
      readOptions = Ply.optionInputs($('options'), p.options, 'opt');
      const seatSel = $('engine-seat');
      seatSel.replaceChildren(...p.players.map((n, i) => Ply.el('option', { value: n, text: n, selected: i === 1 })));
    };
    select.addEventListener('change', changed);
    const preset = params.get('pack');
    if (preset && body.packs.some((p) => p.name === preset)) select.value = preset;
    changed();
    $('opponent').addEventListener('change', () => { $('engine-seat-label').hidden = !$('opponent').value; });
    $('new-game').addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const req = { pack: select.value, options: readOptions() };
      if ($('opponent').value) req.engine = { player: $('opponent').value, seat: $('engine-seat').value };
      if ($('clock').value) {
        const [initial, increment] = $('clock').value.split('+').map(Number);
        req.clock = { initial_ms: initial, increment_ms: increment };
      }
      const r = await Ply.api('POST', '/games', req);
      if (r.status !== 201) { $('setup-error').textContent = Ply.why(r.body); return; }
      goToCreated(r.body);
    });
  }

  /** After creating a game: keep the other seats' links, and open the first seat's. */
  function goToCreated(created) {
    const seats = Object.entries(created.seats);
    sessionStorage.setItem(`ply-links-${created.id}`, JSON.stringify(seats));
    const [, first] = seats[0];
    location.href = `/?game=${encodeURIComponent(created.id)}#token=${first}`;
  }
  window.plyGoToCreated = goToCreated;

  // ---- A game ---------------------------------------------------------------------------

  async function open() {
    $('game').hidden = false;
    const [lay, st] = await Promise.all([
      Ply.api('GET', `/games/${encodeURIComponent(gameId)}/layout`),
      Ply.api('GET', `/games/${encodeURIComponent(gameId)}`),
    ]);
    if (lay.status !== 200 || st.status !== 200) {
      $('status').textContent = Ply.why(lay.status !== 200 ? lay.body : st.body);
      return;
    }
    page.layout = lay.body;
    $('title').textContent = page.layout.game;
    document.title = `${page.layout.game} - Ply`;
    if (token) {
      const s = await Ply.api('POST', `/games/${encodeURIComponent(gameId)}/seat`, { token });
      if (s.status === 200) page.seat = s.body.seat;
      else message(`This link's seat is refused: ${Ply.why(s.body)}. You are watching.`, true);
    }
    $('you').textContent = page.seat ? `You play ${page.seat}.` : 'You are watching.';
    $('record').href = `/games/${encodeURIComponent(gameId)}/record`;
    drawBoard();
    showLinks();
    show(st.body);
    connect();
    $('finish').addEventListener('click', () => submit(page.prefix));
    $('flip').addEventListener('click', () => {
      page.flipped = !page.flipped;
      drawBoard();
      if (page.state) { const st = page.state; page.state = null; show(st); }
    });
    $('pass').addEventListener('click', () => submit([]));
    for (const to of ['start', 'back', 'forward', 'now']) $(`step-${to}`).addEventListener('click', () => step(to));
    $('copy-position').addEventListener('click', async () => {
      $('position').select();
      try {
        await navigator.clipboard.writeText($('position').value);
        message('The position string is copied.');
      } catch (e) {
        message('Selected: copy it with Ctrl+C.');
      }
    });
    $('undo-ask').addEventListener('click', () => undo('ask'));
    $('undo-accept').addEventListener('click', () => undo('accept'));
    $('undo-decline').addEventListener('click', () => undo('decline'));
    $('draw-offer').addEventListener('click', () => act('draw', { draw: 'offer' }));
    $('draw-accept').addEventListener('click', () => act('draw', { draw: 'accept' }));
    $('draw-decline').addEventListener('click', () => act('draw', { draw: 'decline' }));
    // Resigning takes a second click, on the button that the first one shows.
    $('resign').addEventListener('click', () => {
      const sure = $('resign-confirm');
      sure.hidden = !sure.hidden;
      $('resign').textContent = sure.hidden ? 'Resign' : 'Keep playing';
      if (!sure.hidden) sure.focus();
    });
    $('resign-confirm').addEventListener('click', () => act('resign', { resign: true }));
    dragging();
    document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape') clearSelection(); });
    window.addEventListener('offline', () => { if (page.ws) page.ws.close(); });
    window.addEventListener('online', () => { if (!page.ws) connect(); });
  }

  function showLinks() {
    const ul = $('links');
    const base = `${location.origin}/?game=${encodeURIComponent(gameId)}`;
    const seats = JSON.parse(sessionStorage.getItem(`ply-links-${gameId}`) || '[]');
    const items = seats.map(([name, t]) => [`Seat ${name}`, `${base}#token=${t}`]);
    items.push(['Spectators', base]);
    ul.replaceChildren(...items.map(([label, href]) => Ply.el('li', {},
      `${label}: `, Ply.el('a', { href, class: 'seat-link', 'data-label': label, text: href }))));
    if (seats.length > 1) $('links-box').open = true;
  }

  // ---- Connection -----------------------------------------------------------------------

  function connect() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/games/${encodeURIComponent(gameId)}/ws`);
    page.ws = ws;
    ws.onopen = () => {
      page.retry = 0;
      connection('');
      // A refusal that only said the server was away is over once it is back.
      if (page.unreachable) { page.unreachable = false; message(''); }
    };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m.type === 'state') show(m.state);
    };
    ws.onclose = () => {
      if (page.ws !== ws) return;
      page.ws = null;
      connection('Connection lost: reconnecting...');
      document.body.dataset.connected = 'false';
      const delay = Math.min(5000, 300 * 2 ** page.retry++);
      setTimeout(() => { if (!page.ws) connect(); }, delay);
    };
  }

  function connection(text) {
    $('connection').textContent = text;
    if (!text) document.body.dataset.connected = 'true';
  }

  // ---- Looking back -----------------------------------------------------------------------

  /** Steps through the game: to the start, one move back or forward, or back to now. The
   *  boards come from the server's history of the game, fetched once per version. */
  async function step(to) {
    const st = page.state;
    if (!st) return;
    const n = st.moves.length;
    const at = page.view === null ? n : page.view;
    const next = Math.max(0, Math.min(n, { start: 0, back: at - 1, forward: at + 1, now: n }[to]));
    if (next === n) { page.view = null; redraw(); return; }
    if (!page.history || page.history.version !== st.version) {
      const r = await Ply.api('GET', `/games/${encodeURIComponent(gameId)}/history`);
      if (r.status !== 200) { message(Ply.why(r.body), true); return; }
      page.history = r.body;
    }
    if (page.state !== st || page.history.version !== st.version) return; // the game moved on
    page.view = next;
    redraw();
  }

  function redraw() {
    if (!page.state) return;
    const st = page.state;
    page.state = null;
    show(st);
  }

  // ---- Drawing --------------------------------------------------------------------------

  const pieceByCode = () => Object.fromEntries(page.layout.pieces.map((p) => [p.code, p]));

  function drawBoard() {
    const L = page.layout;
    const board = $('board');
    board.style.setProperty('--rows', L.rows);
    board.style.setProperty('--cols', L.cols);
    board.dataset.style = L.style || 'plain';
    if (L.colour) board.style.setProperty('--board', L.colour);
    board.replaceChildren();
    const stars = new Set(L.stars || []);
    // Checkered: a1 (the bottom left) is dark, as on a chess board.
    const shade = (r, c) => ((L.rows - 1 - r + c) % 2 === 0 ? 'dark' : 'light');
    const colName = (c) => {
      for (let r = 0; r < L.rows; r++) if (L.cells[r][c]) return L.cells[r][c].name.replace(/[0-9]+$/, '');
      return '';
    };
    const rowName = (r) => {
      const cell = L.cells[r].find((x) => x);
      return cell ? cell.name.replace(/^[^0-9]+/, '') : '';
    };
    const corner = () => Ply.el('div', { class: 'coord', 'aria-hidden': 'true' });
    const turn = (i, n) => (page.flipped ? n - 1 - i : i);
    const colRow = () => [corner(), ...Array.from({ length: L.cols }, (_, c) =>
      Ply.el('div', { class: 'coord', 'aria-hidden': 'true', text: colName(turn(c, L.cols)) })), corner()];
    board.append(...colRow());
    let first = true;
    for (let i = 0; i < L.rows; i++) {
      const r = turn(i, L.rows);
      board.append(Ply.el('div', { class: 'coord', 'aria-hidden': 'true', text: rowName(r) }));
      for (let j = 0; j < L.cols; j++) {
        const c = turn(j, L.cols);
        const cell = L.cells[r][c];
        if (!cell) { board.append(Ply.el('div', { class: `hole ${shade(r, c)}`, 'aria-hidden': 'true' })); continue; }
        const b = Ply.el('button', {
          class: `cell ${shade(r, c)}`, 'data-cell': cell.name, 'data-row': r, 'data-col': c,
          tabindex: first ? '0' : '-1', type: 'button',
        });
        first = false;
        if (stars.has(cell.name)) b.classList.add('star');
        // Zones drawn as lines (or not at all) do not tint their cells.
        const zones = cell.zones.map((i) => L.zones[i]).filter((z) => !z.draw || z.draw === 'tint');
        const tinted = zones.find((z) => z.colour);
        if (tinted) b.style.setProperty('--zone', tinted.colour);
        else if (zones.length) b.classList.add(`zone-${L.zones.indexOf(zones[0]) % 6}`);
        const marks = zones.map((z) => zoneMark(z)).filter((m) => m).join(' ');
        // Drawn by the style sheet from the attribute: the button's name is its label alone.
        if (marks) b.append(Ply.el('span', { class: 'mark', 'aria-hidden': 'true', 'data-text': marks }));
        b.append(Ply.el('span', { class: 'piece-slot' }));
        b.addEventListener('click', () => clicked(cell.name));
        b.addEventListener('keydown', (ev) => arrows(ev, r, c));
        board.append(b);
      }
      board.append(Ply.el('div', { class: 'coord', 'aria-hidden': 'true', text: rowName(r) }));
    }
    board.append(...colRow());
    // Every square of the grid placed by hand, so that the lines of an intersections board
    // can lie under the cells in the same grid.
    [...board.children].forEach((e, k) => {
      e.style.gridRow = String(Math.floor(k / (L.cols + 2)) + 1);
      e.style.gridColumn = String((k % (L.cols + 2)) + 1);
    });
    if (L.style === 'hexes') hexes(board);
    if (L.style === 'intersections') {
      const g = lines(turn);
      g.style.gridRow = `2 / span ${L.rows}`;
      g.style.gridColumn = `2 / span ${L.cols}`;
      board.prepend(g);
    }
    legend();
  }

  /** A board of hexagons: each row half a cell to the right of the row below it (as drawn:
   *  turning the board turns the rhombus, and the rule holds again), each cell two of the
   *  grid's half-columns wide, the coordinates beside the rows and columns they name. */
  function hexes(board) {
    const L = page.layout;
    const R = L.rows;
    const C = L.cols;
    const halves = 2 * C + R - 1;
    board.style.gridTemplateColumns = `1.2rem repeat(${halves}, 1fr) 1.2rem`;
    board.style.setProperty('--cols', String(halves / 2));
    [...board.children].forEach((e, k) => {
      const row = Math.floor(k / (C + 2)); // 0 and R + 1: the columns' names
      const col = k % (C + 2); // 0 and C + 1: the rows' names
      const shift = row === 0 ? R - 1 : Math.max(0, R - row);
      if (col === 0) e.style.gridColumn = String(1 + shift);
      else if (col === C + 1) e.style.gridColumn = String(2 + shift + 2 * C);
      else e.style.gridColumn = `${2 + shift + 2 * (col - 1)} / span 2`;
      // Below the last row, which overlaps its row's bottom by a quarter of its height.
      if (row === R + 1) e.style.marginTop = '28.87%';
    });
  }

  const SVG = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, ...children) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  }

  /** The lines of an intersections board, under its cells: one through every row and column
   *  of points (on a board with holes, only between neighbouring points and along links); a `band` zone's two parts leave the inner columns open between them, a
   *  `diagonals` zone's parts are crossed corner to corner. In the board's own coordinates,
   *  turned with it. */
  function lines(turn) {
    const L = page.layout;
    const R = L.rows;
    const C = L.cols;
    const parts = new Map(); // zone index -> [rows, cols] (turned)
    L.cells.forEach((row, r) => row.forEach((cell, c) => {
      if (!cell) return;
      for (const i of cell.zones) {
        if (!parts.has(i)) parts.set(i, [[], []]);
        parts.get(i)[0].push(turn(r, R));
        parts.get(i)[1].push(turn(c, C));
      }
    }));
    const span = (i) => {
      const [rs, cs] = parts.get(i) || [[0], [0]];
      return [Math.min(...rs), Math.max(...rs), Math.min(...cs), Math.max(...cs)];
    };
    // The rows a river leaves open: between the last row of one part and the first of the next.
    const gaps = [];
    L.zones.forEach((z, i) => {
      if (z.draw !== 'band' || !z.owner || !parts.has(i)) return;
      const [, bottom] = span(i);
      L.zones.forEach((w, j) => {
        if (j !== i && w.name === z.name && parts.has(j) && span(j)[0] === bottom + 1) gaps.push(bottom);
      });
    });
    const g = svg('svg', {
      class: 'lines', viewBox: `0 0 ${C} ${R}`, preserveAspectRatio: 'none', 'aria-hidden': 'true',
    });
    const line = (x1, y1, x2, y2, cls) => g.append(svg('line', { x1, y1, x2, y2, class: cls || '' }));
    // A board with holes (a mill board, a cross) has lines only where its points are
    // neighbours: between two points side by side, and along its links across holes.
    if (L.cells.some((row) => row.some((cell) => !cell))) {
      const at = new Map();
      L.cells.forEach((row, r) => row.forEach((cell, c) => { if (cell) at.set(cell.name, [turn(r, R), turn(c, C)]); }));
      const join = ([r1, c1], [r2, c2]) => line(c1 + 0.5, r1 + 0.5, c2 + 0.5, r2 + 0.5);
      L.cells.forEach((row, r) => row.forEach((cell, c) => {
        if (!cell) return;
        if (row[c + 1]) join(at.get(cell.name), at.get(row[c + 1].name));
        if (L.cells[r + 1] && L.cells[r + 1][c]) join(at.get(cell.name), at.get(L.cells[r + 1][c].name));
      }));
      for (const [a, b] of L.links || []) if (at.has(a) && at.has(b)) join(at.get(a), at.get(b));
      return g;
    }
    for (const k of gaps) g.append(svg('rect', { x: 0.5, y: k + 0.5, width: C - 1, height: 1, class: 'band' }));
    for (let r = 0; r < R; r++) line(0.5, r + 0.5, C - 0.5, r + 0.5);
    for (let c = 0; c < C; c++) {
      const edge = c === 0 || c === C - 1;
      let from = 0.5;
      for (const k of [...gaps].sort((a, b) => a - b)) {
        if (edge) continue;
        line(c + 0.5, from, c + 0.5, k + 0.5);
        from = k + 1.5;
      }
      line(c + 0.5, from, c + 0.5, R - 0.5);
    }
    L.zones.forEach((z, i) => {
      if (z.draw !== 'diagonals' || !parts.has(i)) return;
      const [r0, r1, c0, c1] = span(i);
      line(c0 + 0.5, r0 + 0.5, c1 + 0.5, r1 + 0.5);
      line(c1 + 0.5, r0 + 0.5, c0 + 0.5, r1 + 0.5);
    });
    g.append(svg('rect', { x: 0.5, y: 0.5, width: C - 1, height: R - 1, class: 'frame' }));
    return g;
  }

  /** Whether a colour (`#rgb` or `#rrggbb`) is light. */
  function light(colour) {
    let h = colour.slice(1);
    if (h.length === 3) h = [...h].map((x) => x + x).join('');
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
    return 0.299 * r + 0.587 * g + 0.114 * b > 150;
  }

  const DEFAULT_SIDES = ['#f8f6f0', '#2b2b2b'];
  // The chess family by its filled glyphs (the two sides differ by fill, and by outline).
  const CHESS = { K: '♚', Q: '♛', R: '♜', B: '♝', N: '♞', P: '♟' };

  /** A piece drawn as the pack's image asks: an SVG of 100 by 100. */
  function pieceImage(p, owner, colour) {
    const fill = colour || DEFAULT_SIDES[owner] || DEFAULT_SIDES[0];
    const ink = light(fill) ? '#1b1b1b' : '#f8f6f0';
    const edge = light(fill) ? '#3a3a3a' : '#000';
    const g = svg('svg', { viewBox: '0 0 100 100', class: 'piece-img', 'aria-hidden': 'true' });
    const text = (t, size, attrs) => svg('text', {
      x: 50, y: 52, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': size, ...attrs, text: t,
    });
    const image = p.image;
    const label = p.glyph || '';
    if (image === 'disc' || image === 'stack') {
      if (image === 'stack') g.append(svg('circle', { cx: 50, cy: 58, r: 38, fill, stroke: edge, 'stroke-width': 3 }));
      g.append(svg('circle', { cx: 50, cy: image === 'stack' ? 44 : 50, r: 40, fill, stroke: edge, 'stroke-width': 3 }));
      g.append(svg('circle', { cx: 50, cy: image === 'stack' ? 44 : 50, r: 30, fill: 'none', stroke: edge, 'stroke-width': 1.5, opacity: 0.35 }));
      if (label) g.append(text(label, 40, { y: image === 'stack' ? 46 : 52, fill: ink, 'font-weight': 700 }));
    } else if (image === 'stone') {
      const id = `stone-${owner}`;
      g.append(svg('defs', {}, svg('radialGradient', { id, cx: '35%', cy: '30%', r: '75%' },
        svg('stop', { offset: '0%', 'stop-color': light(fill) ? '#ffffff' : '#6a6a6a' }),
        svg('stop', { offset: '100%', 'stop-color': fill }))));
      g.append(svg('circle', { cx: 50, cy: 50, r: 46, fill: `url(#${id})`, stroke: edge, 'stroke-width': 1.5 }));
      if (label) g.append(text(label, 40, { fill: ink, 'font-weight': 700 }));
    } else if (image === 'ring') {
      g.append(svg('circle', { cx: 50, cy: 50, r: 34, fill: 'none', stroke: edge, 'stroke-width': 16 }));
      g.append(svg('circle', { cx: 50, cy: 50, r: 34, fill: 'none', stroke: fill, 'stroke-width': 10 }));
      if (label) g.append(text(label, 34, { fill: edge, 'font-weight': 700 }));
    } else if (image === 'counter') {
      g.append(svg('circle', { cx: 50, cy: 50, r: 46, fill: '#f6e7c8', stroke: '#5a4630', 'stroke-width': 2.5 }));
      g.append(svg('circle', { cx: 50, cy: 50, r: 38, fill: 'none', stroke: fill, 'stroke-width': 2.5 }));
      g.append(text(label || p.letter, 50, { fill, 'font-weight': 700, class: 'cjk' }));
    } else if (image === 'wedge') {
      g.append(svg('polygon', { points: '50,6 80,18 90,94 10,94 20,18', fill: '#f0d9a0', stroke: '#5a4630', 'stroke-width': 2.5 }));
      g.append(text(label || p.letter, 44, { y: 58, fill: '#1b1b1b', 'font-weight': 700, class: 'cjk' }));
      if (owner === 1) g.setAttribute('class', 'piece-img turned');
    } else if (image && image.startsWith('figure:')) {
      const k = image.slice('figure:'.length);
      const glyph = (t, size, attrs) => text(t, size, {
        fill, stroke: light(fill) ? '#1b1b1b' : '#f8f6f0', 'stroke-width': light(fill) ? 3 : 1.2,
        'paint-order': 'stroke', 'stroke-linejoin': 'round', class: 'chess', ...attrs,
      });
      if (CHESS[k]) g.append(glyph(CHESS[k], 86, { y: 56 }));
      else {
        // The compound pieces: a knight beside a bishop (A) or a rook (C).
        g.append(glyph(k === 'A' ? CHESS.B : CHESS.R, 62, { x: 34, y: 60 }));
        g.append(glyph(CHESS.N, 62, { x: 66, y: 50 }));
      }
    }
    return g;
  }

  function zoneMark(z) {
    const mark = z.glyph || z.mark;
    if (!mark) return '';
    if (!z.owner) return mark;
    const p = page.layout.players.find((x) => x.name === z.owner);
    return mark + (p ? p.symbol.toLowerCase() : '');
  }

  function zoneWords(z) {
    return z.owner ? `${z.name} of ${z.owner}` : z.name;
  }

  function legend() {
    const L = page.layout;
    const parts = L.zones.filter((z) => zoneMark(z) && (!z.draw || z.draw === 'tint')).map((z) => `${zoneMark(z)} ${zoneWords(z)}`);
    const kinds = [...new Set(L.pieces.map((p) => `${p.glyph || p.letter} ${p.kind}`))];
    const imaged = L.pieces.some((p) => p.image);
    const tone = (p, i) => (light(p.colour || DEFAULT_SIDES[i]) ? 'light' : 'dark');
    const toned = imaged && tone(L.players[0], 0) !== tone(L.players[1], 1);
    const owners = L.players.map((p, i) => {
      if (!imaged) return `${i === 0 ? 'round' : 'square'} pieces: ${p.name}`;
      return toned ? `${tone(p, i)} pieces: ${p.name}` : `${p.name}'s pieces in its colour`;
    });
    $('legend').textContent = [owners.join(', '), kinds.join(', '), parts.join('; ')]
      .filter((x) => x).join(' | ');
  }

  function arrows(ev, r, c) {
    let d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[ev.key];
    if (!d) return;
    if (page.flipped) d = [-d[0], -d[1]];
    ev.preventDefault();
    const L = page.layout;
    let [nr, nc] = [r + d[0], c + d[1]];
    while (nr >= 0 && nr < L.rows && nc >= 0 && nc < L.cols) {
      const next = document.querySelector(`.cell[data-row="${nr}"][data-col="${nc}"]`);
      if (next) {
        document.querySelectorAll('.cell[tabindex="0"]').forEach((x) => x.setAttribute('tabindex', '-1'));
        next.setAttribute('tabindex', '0');
        next.focus();
        return;
      }
      nr += d[0]; nc += d[1];
    }
  }

  /** Shows a state, if it is newer than the one shown. */
  function show(st) {
    if (page.state && st.version < page.state.version) return;
    const changed = !page.state || st.version !== page.state.version;
    // A new version of the game brings the board back to now.
    if (page.state && changed) page.view = null;
    page.state = st;
    if (changed) page.prefix = [];
    const L = page.layout;
    const pieces = pieceByCode();
    // Looking back: the board of an earlier move, from the history.
    const past = page.view !== null && page.history && page.history.version === st.version
      ? page.history.steps[page.view] : null;
    const shownCells = past ? past.board.cells : st.board.cells;
    const last = new Set((past ? past.path : st.last_path) || []);
    const check = new Set(past ? [] : (st.check || []));
    for (let r = 0; r < L.rows; r++) {
      for (let c = 0; c < L.cols; c++) {
        const cell = L.cells[r][c];
        if (!cell) continue;
        const b = document.querySelector(`.cell[data-cell="${cell.name}"]`);
        const code = shownCells[r][c] || '';
        b.dataset.piece = code;
        const slot = b.querySelector('.piece-slot');
        slot.replaceChildren();
        const words = [cell.name];
        if (code) {
          const p = pieces[code];
          const owner = L.players.findIndex((x) => x.name === (p && p.owner));
          const colour = (p && p.colour) || (owner >= 0 && L.players[owner].colour);
          if (p && p.image) {
            slot.append(Ply.el('span', { class: `piece imaged owner-${owner}`, 'aria-hidden': 'true' },
              pieceImage(p, owner, colour)));
          } else {
            const span = Ply.el('span', { class: `piece owner-${owner}`, 'aria-hidden': 'true' },
              Ply.el('span', { class: 'glyph', 'data-text': p ? (p.glyph || p.letter) : code }),
              Ply.el('span', { class: 'owner', 'data-text': owner >= 0 ? L.players[owner].symbol : '' }));
            if (colour) span.style.setProperty('--piece', colour);
            slot.append(span);
          }
          words.push(p ? `${p.owner} ${p.kind} (${code})` : code);
        } else {
          words.push('empty');
        }
        cell.zones.forEach((i) => words.push(zoneWords(L.zones[i])));
        if (last.has(cell.name)) words.push('last move');
        if (check.has(cell.name)) words.push('in check');
        b.classList.toggle('last', last.has(cell.name));
        b.classList.toggle('check', check.has(cell.name));
        b.setAttribute('aria-label', words.join(', '));
      }
    }
    const over = st.status !== 'playing';
    let status;
    if (st.status === 'over') status = `Game over: ${st.winner ? `${st.winner} wins` : 'a draw'}${endWords(st)}.`;
    else if (st.status === 'stuck') status = `${st.to_move} has no legal move: the game cannot go on.`;
    else status = `${st.to_move} to move${st.to_move === page.seat ? ' (you)' : ''}${check.size ? ', in check' : ''}.`;
    if (past) status = page.view === 0 ? 'The start (looking back).' : `After move ${page.view}, ${past.mv} (looking back).`;
    $('status').textContent = status;
    $('moves').replaceChildren(...st.moves.map((m, i) => Ply.el('li', {
      text: m, 'aria-current': past && i === page.view - 1 ? 'step' : null,
    })));
    $('step-start').disabled = $('step-back').disabled = st.moves.length === 0 || page.view === 0;
    $('step-forward').disabled = $('step-now').disabled = page.view === null;
    document.body.dataset.view = page.view === null ? 'now' : String(page.view);
    $('position').value = past ? past.position : st.position;
    const mine = !over && page.seat && st.to_move === page.seat;
    $('pass').hidden = !(mine && st.legal_paths.some((p) => p.length === 0));
    const offer = st.undo_request;
    $('undo-ask').hidden = !(page.seat && !over && !offer && st.moves.length > 0);
    $('undo-accept').hidden = !(page.seat && offer && offer.by !== page.seat);
    $('undo-decline').hidden = !(page.seat && offer);
    $('undo-decline').textContent = offer && offer.by === page.seat ? 'Withdraw' : 'Refuse';
    $('undo-note').textContent = offer ? `${offer.by} asks to take back ${offer.takes_back}.` : '';
    const draw = st.draw_offer;
    const playing = page.seat && !over;
    $('draw-offer').hidden = !(playing && !draw);
    $('draw-accept').hidden = !(playing && draw && draw !== page.seat);
    $('draw-decline').hidden = !(playing && draw);
    $('draw-decline').textContent = draw && draw === page.seat ? 'Withdraw the offer' : 'Decline the draw';
    $('draw-note').textContent = draw && !over ? `${draw} offers a draw.` : '';
    $('resign').hidden = !playing;
    if (!playing || page.shownVersion !== st.version) {
      $('resign-confirm').hidden = true;
      $('resign').textContent = 'Resign';
    }
    page.shownVersion = st.version;
    $('thinking').hidden = !(st.status === 'playing' && st.engine_seat && st.to_move === st.engine_seat);
    document.body.dataset.endReason = st.end_reason || '';
    showClocks(st);
    document.body.dataset.version = String(st.version);
    document.body.dataset.status = st.status;
    highlight();
    completeLegal(st);
  }

  /** Fetches the legal moves a state does not list (it lists the first ones), a page at a
   *  time, for as long as the state is the one shown. */
  async function completeLegal(st) {
    while (page.state === st && st.legal_paths.length < (st.legal_count || 0)) {
      const r = await Ply.api('GET',
        `/games/${encodeURIComponent(gameId)}/legal?offset=${st.legal_paths.length}`);
      if (r.status !== 200 || r.body.version !== st.version || r.body.moves.length === 0) return;
      if (page.state !== st) return;
      st.legal_moves.push(...r.body.moves);
      st.legal_paths.push(...r.body.paths);
      highlight();
    }
    if (page.state === st) document.body.dataset.legal = String(st.legal_paths.length);
  }

  // ---- Entering a move ------------------------------------------------------------------

  /** The legal paths that begin with the cells entered so far. */
  function matching(prefix) {
    return page.state.legal_paths.filter((p) => prefix.every((c, i) => p[i] === c));
  }

  function highlight() {
    if (page.view !== null) page.prefix = [];
    const prefix = page.prefix;
    const targets = new Set();
    let complete = false;
    const st = page.state;
    // Where one's own placements may go, before anything is chosen (not when every empty cell
    // may take one, as in Gomoku: then the marks would say nothing).
    const places = new Set();
    if (!prefix.length && st && st.status === 'playing' && page.seat && st.to_move === page.seat) {
      for (const p of st.legal_paths) if (p.length === 1) places.add(p[0]);
      const empty = st.board.cells.flat().filter((c) => c === '').length;
      if (places.size >= empty) places.clear();
    }
    if (prefix.length) {
      for (const p of matching(prefix)) {
        if (p.length > prefix.length) targets.add(p[prefix.length]);
        else complete = true;
      }
    }
    document.querySelectorAll('.cell').forEach((b) => {
      const name = b.dataset.cell;
      b.classList.toggle('selected', prefix.includes(name));
      b.classList.toggle('target', targets.has(name) || places.has(name));
      b.classList.toggle('place', places.has(name));
      b.setAttribute('aria-pressed', prefix.includes(name) ? 'true' : 'false');
    });
    $('finish').hidden = !(complete && targets.size > 0);
  }

  function clearSelection() {
    page.prefix = [];
    if (page.state) highlight();
  }

  function message(text, bad) {
    $('message').textContent = text;
    $('message').classList.toggle('error', !!bad);
  }

  /** Drag as well as click: a piece pressed and carried past a few pixels is chosen (its
   *  targets show while it is carried); let go on another cell, that cell is clicked, as if
   *  the two cells had been clicked in turn. A press let go where it began is a plain click. */
  function dragging() {
    const board = $('board');
    const cellAt = (ev) => {
      const el = document.elementFromPoint(ev.clientX, ev.clientY);
      return el && el.closest ? el.closest('.cell') : null;
    };
    board.addEventListener('pointerdown', (ev) => {
      const cell = ev.target.closest && ev.target.closest('.cell');
      if (!cell || ev.button !== 0 || !cell.dataset.piece) { page.drag = null; return; }
      page.drag = { from: cell.dataset.cell, x: ev.clientX, y: ev.clientY, carried: false };
    });
    board.addEventListener('pointermove', (ev) => {
      const d = page.drag;
      if (!d || d.carried || Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < 8) return;
      d.carried = true;
      board.classList.add('dragging');
      // Chosen as by a click, unless it is chosen already.
      if (!(page.prefix.length === 1 && page.prefix[0] === d.from)) { page.prefix = []; clicked(d.from); }
    });
    const drop = (ev) => {
      const d = page.drag;
      page.drag = null;
      board.classList.remove('dragging');
      if (!d || !d.carried) return;
      const cell = cellAt(ev);
      if (cell && cell.dataset.cell !== d.from && page.prefix[0] === d.from) clicked(cell.dataset.cell);
      // A click that follows the release (let go where it began) is not a second choice.
      page.dropped = performance.now();
    };
    document.addEventListener('pointerup', drop);
    document.addEventListener('pointercancel', () => { page.drag = null; board.classList.remove('dragging'); });
  }

  function clicked(name) {
    if (page.dropped && performance.now() - page.dropped < 300) { page.dropped = 0; return; }
    const st = page.state;
    if (!st || page.busy) return;
    if (page.view !== null) { message('You are looking back: press Now to play.'); return; }
    if (!page.seat) { message('You are watching: open a seat link to play.'); return; }
    if (st.status !== 'playing') { message('The game is over.'); return; }
    if (st.to_move !== page.seat) { message(`It is ${st.to_move}'s turn.`); return; }
    message('');
    const prefix = page.prefix;
    if (prefix.length === 0) {
      const starts = matching([name]);
      if (starts.length === 0) {
        const code = document.querySelector(`.cell[data-cell="${name}"]`).dataset.piece;
        const mine = code && pieceByCode()[code] && pieceByCode()[code].owner === page.seat;
        // A piece of one's own with no move is selected all the same: the server says why
        // when it is moved. Where one-cell moves (placements) are played, any other cell is
        // tried as one, and the server says why not.
        if (mine) { page.prefix = [name]; highlight(); return; }
        if (st.legal_paths.some((p) => p.length === 1)) { submit([name]); return; }
        message('Choose one of your pieces first.');
        return;
      }
      if (starts.some((p) => p.length === 1) && !starts.some((p) => p.length > 1)) { submit([name]); return; }
      page.prefix = [name];
      highlight();
      return;
    }
    if (name === prefix[prefix.length - 1]) {
      if (matching(prefix).some((p) => p.length === prefix.length)) submit(prefix);
      else if (prefix.length === 1) clearSelection();
      return;
    }
    const ext = [...prefix, name];
    const further = matching(ext);
    if (further.length) {
      page.prefix = ext;
      if (!further.some((p) => p.length > ext.length)) submit(ext);
      else highlight();
      return;
    }
    if (prefix.length === 1 && matching([name]).some((p) => p.length > 1)) {
      page.prefix = [name];
      highlight();
      return;
    }
    // Not a legal move: the server judges it and says why.
    submit(ext);
  }

  async function submit(path) {
    const st = page.state;
    // A promotion with a choice: one legal move per kind (`e7-e8=Q`); ask which.
    let move = path;
    const choices = (st.legal_moves || []).map((t, i) => [t, st.legal_paths[i]])
      .filter(([t, p]) => t.includes('=') && p.length === path.length && p.every((c, i) => c === path[i]))
      .map(([t]) => t);
    if (choices.length > 0) {
      const letters = choices.map((t) => t.split('=')[1]);
      page.busy = true; // the board waits for the choice
      const asked = await pickPromotion(letters);
      page.busy = false;
      if (asked === null) { page.prefix = []; highlight(); return; }
      move = `${path.join('-')}=${asked}`;
    }
    page.busy = true;
    const r = await Ply.api('POST', `/games/${encodeURIComponent(gameId)}/moves`,
      { token, version: st.version, move });
    page.busy = false;
    page.prefix = [];
    if (r.status === 200) { message(''); show(r.body); return; }
    if (r.status === 409 && r.body.state) {
      show(r.body.state);
      message('The game changed meanwhile; look again.', true);
      return;
    }
    highlight();
    page.unreachable = r.status === 0;
    const shown = path.length ? path.join('-') : 'pass';
    if (page.unreachable) { message(`${shown} was not sent: ${Ply.why(r.body)}.`, true); return; }
    // The server's sentence names the piece and the move already.
    message(`Refused: ${Ply.why(r.body)}`, true);
    document.body.dataset.refusals = String(Number(document.body.dataset.refusals || 0) + 1);
  }

  /** Asks, in the page, which kind a promotion makes: one button per letter, each drawn as
   *  the piece; resolves to the letter, or `null` when cancelled (Cancel or Escape). */
  function pickPromotion(letters) {
    const L = page.layout;
    const box = $('promote');
    return new Promise((done) => {
      const finish = (v) => {
        box.hidden = true;
        $('promote-choices').replaceChildren();
        document.removeEventListener('keydown', esc, true);
        done(v);
      };
      const esc = (ev) => { if (ev.key === 'Escape') { ev.stopPropagation(); finish(null); } };
      document.addEventListener('keydown', esc, true);
      $('promote-cancel').onclick = () => finish(null);
      $('promote-choices').replaceChildren(...letters.map((letter) => {
        const owner = L.players.findIndex((x) => x.name === page.seat);
        const p = L.pieces.find((x) => x.letter === letter && x.owner === page.seat);
        const colour = (p && p.colour) || (owner >= 0 && L.players[owner].colour);
        const b = Ply.el('button', {
          type: 'button', class: 'promote-choice', 'data-letter': letter,
          'aria-label': p ? `${p.kind} (${letter})` : letter,
        }, p && p.image ? pieceImage(p, owner, colour) : document.createTextNode(p ? (p.glyph || letter) : letter));
        b.addEventListener('click', () => finish(letter));
        return b;
      }));
      box.hidden = false;
      $('promote-choices').querySelector('button').focus();
    });
  }

  /** Shows the clocks of a game with a time control, and counts the running one down from
   *  the time the state gave, as the page's own clock goes (the server decides when a flag
   *  falls, and says so in a state). */
  function showClocks(st) {
    const box = $('clocks');
    if (page.clockTimer) { clearInterval(page.clockTimer); page.clockTimer = null; }
    if (!st.clock) { box.hidden = true; return; }
    box.hidden = false;
    const received = performance.now();
    const items = st.players.map((name, i) => {
      const time = Ply.el('span', { class: 'time' });
      const li = Ply.el('li', { class: 'clock', 'data-player': name }, `${name} `, time);
      li.classList.toggle('running', st.clock.running === name);
      return [li, time, st.clock.remaining_ms[i], st.clock.running === name];
    });
    box.replaceChildren(...items.map(([li]) => li));
    const tick = () => {
      const gone = performance.now() - received;
      for (const [li, time, left, running] of items) {
        const ms = Math.max(0, running ? left - gone : left);
        time.textContent = clockText(ms);
        li.classList.toggle('low', ms < 10000);
        li.dataset.ms = String(Math.round(ms));
      }
    };
    tick();
    if (st.clock.running) page.clockTimer = setInterval(tick, 100);
  }

  /** `4:05`, or `0:09.4` under ten seconds. */
  function clockText(ms) {
    const s = ms / 1000;
    const m = Math.floor(s / 60);
    const rest = s - m * 60;
    if (s < 10) return `${m}:0${rest.toFixed(1)}`;
    return `${m}:${String(Math.floor(rest)).padStart(2, '0')}`;
  }

  /** Why a game ended, as it follows the result: ` (den)`, the end rule that decided it;
   *  `: B resigned`; ` by agreement`. */
  function endWords(st) {
    switch (st.end_reason) {
      case 'rule': return st.end_rule ? ` (${st.end_rule})` : '';
      case 'resignation': {
        const loser = st.players.find((p) => p !== st.winner);
        return loser ? `: ${loser} resigned` : ': resigned';
      }
      case 'agreement': return ' by agreement';
      case 'time': {
        const loser = st.players.find((p) => p !== st.winner);
        return loser ? `: ${loser}'s time ran out` : ': time ran out';
      }
      default: return '';
    }
  }

  /** A request of the seat about the game as a whole (`resign`, `draw`), made on the version
   *  shown. */
  async function act(route, body) {
    const r = await Ply.api('POST', `/games/${encodeURIComponent(gameId)}/${route}`,
      { token, version: page.state.version, ...body });
    if (r.status === 200) { message(''); show(r.body); } else if (r.status === 409 && r.body.state) {
      show(r.body.state);
      message('The game changed meanwhile; look again.', true);
    } else { page.unreachable = r.status === 0; message(Ply.why(r.body), true); }
  }

  async function undo(what) {
    const r = await Ply.api('POST', `/games/${encodeURIComponent(gameId)}/undo`,
      { token, version: page.state.version, undo: what });
    if (r.status === 200) { message(''); show(r.body); } else if (r.status === 409 && r.body.state) show(r.body.state);
    else { page.unreachable = r.status === 0; message(Ply.why(r.body), true); }
  }
})();
