// The playground: a pack checked on the server as it is typed (the diagnostics of
// `ply validate`, marked at their lines), `ply show`'s view of it, and a game of it.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const text = $('pack-text');
  const PASTED = 'pasted.toml';
  let readOptions = () => ({});
  let optionsShown = '';
  let timer = null;
  let asked = 0;

  async function init() {
    const { status, body } = await Ply.api('GET', '/packs');
    const select = $('start-from');
    if (status === 200) {
      for (const p of body.packs) select.append(Ply.el('option', { value: p.name, text: `${p.game} (${p.name})` }));
    }
    const wanted = new URLSearchParams(location.search).get('pack');
    if (wanted) select.value = wanted;
    else if ([...select.options].some((o) => o.value === 'cats_rabbits')) select.value = 'cats_rabbits';
    $('load').addEventListener('click', load);
    text.addEventListener('input', () => { gutter([]); later(); });
    text.addEventListener('scroll', () => { $('gutter').scrollTop = text.scrollTop; });
    $('start').addEventListener('click', start);
    await load();
  }

  async function load() {
    const name = $('start-from').value;
    if (!name) return;
    const r = await Ply.api('GET', `/packs/${encodeURIComponent(name)}`);
    if (r.status !== 200) { $('verdict').textContent = Ply.why(r.body); return; }
    text.value = r.body.text;
    optionsShown = '';
    check();
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(check, 350);
  }

  /** Marks the lines of the editor's gutter that have problems. */
  function gutter(diags) {
    const lines = text.value.split('\n').length;
    const marks = new Map();
    for (const d of diags) {
      if (d.file === PASTED && d.line) {
        for (let l = d.line; l <= (d.end_line || d.line); l++) {
          if (marks.get(l) !== 'bad') marks.set(l, d.severity === 'error' ? 'bad' : 'warn');
        }
      }
    }
    const g = $('gutter');
    g.replaceChildren(...Array.from({ length: lines }, (_, i) => {
      const m = marks.get(i + 1);
      return Ply.el('div', { class: m || '', 'data-line': i + 1, text: String(i + 1) });
    }));
    g.scrollTop = text.scrollTop;
  }

  /** Puts the caret at a line and column of the editor. */
  function goTo(line, column) {
    const lines = text.value.split('\n');
    let at = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
    at += Math.max(0, (column || 1) - 1);
    text.focus();
    text.setSelectionRange(at, at);
    const lineHeight = parseFloat(getComputedStyle(text).lineHeight) || 18;
    text.scrollTop = Math.max(0, (line - 5) * lineHeight);
  }

  async function check() {
    const mine = ++asked;
    $('verdict').textContent = 'Checking...';
    $('verdict').className = 'verdict';
    const options = readOptions();
    let r = await Ply.api('POST', '/playground/check', { text: text.value, options });
    // The options chosen belong to the last pack that loaded: when the text no longer loads
    // with them, try it with its own defaults, and if it loads so, forget them.
    if (mine === asked && Object.keys(options).length && r.status === 200 && !r.body.ok) {
      const plain = await Ply.api('POST', '/playground/check', { text: text.value, options: {} });
      if (plain.status === 200 && plain.body.ok) r = plain;
    }
    if (mine !== asked) return;
    document.body.dataset.checks = String(Number(document.body.dataset.checks || 0) + 1);
    if (r.status !== 200) {
      verdict(false, `The server refuses this pack (${r.status}): ${Ply.why(r.body)}`);
      $('diags').replaceChildren();
      gutter([]);
      return;
    }
    const report = r.body;
    const errors = report.diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = report.diagnostics.length - errors;
    const plural = (n, w) => `${n} ${w}${n === 1 ? '' : 's'}`;
    verdict(report.ok, report.ok
      ? `The pack loads and plays${warnings ? ` (${plural(warnings, 'warning')})` : ''}.`
      : `${plural(errors, 'error')}${warnings ? `, ${plural(warnings, 'warning')}` : ''}.`);
    $('diags').replaceChildren(...report.diagnostics.map((d) => {
      const where = d.line ? `${d.file}:${d.line}:${d.column}` : '';
      const head = Ply.el('button', { type: 'button', class: 'where', 'data-line': d.line || '', 'data-column': d.column || '',
        text: `${d.severity}${where ? ` at ${where}` : ''}: ${d.message}` });
      if (d.line && d.file === PASTED) head.addEventListener('click', () => goTo(d.line, d.column));
      return Ply.el('li', { class: d.severity, 'data-file': d.file || '', 'data-line': d.line || '', 'data-column': d.column || '' },
        head, Ply.el('pre', { text: d.rendered }));
    }));
    gutter(report.diagnostics);
    // A pack that does not load keeps the last view of one that did, marked as such.
    if (report.show) $('show').textContent = report.show;
    $('show').classList.toggle('stale', !report.show);
    const shape = JSON.stringify(report.options);
    if (report.ok && shape !== optionsShown) {
      optionsShown = shape;
      readOptions = Ply.optionInputs($('play-options'), report.options, 'popt');
      $('play-options').querySelectorAll('input').forEach((i) => i.addEventListener('change', later));
    }
  }

  function verdict(ok, words) {
    $('verdict').textContent = words;
    $('verdict').className = `verdict ${ok ? 'ok' : 'bad'}`;
    $('start').disabled = !ok;
    document.body.dataset.ok = String(ok);
  }

  async function start() {
    $('start-error').textContent = '';
    const req = { text: text.value, options: readOptions() };
    if ($('play-opponent').value) req.engine = { player: $('play-opponent').value };
    if ($('play-clock').value) {
      const [initial, increment] = $('play-clock').value.split('+').map(Number);
      req.clock = { initial_ms: initial, increment_ms: increment };
    }
    const r = await Ply.api('POST', '/playground/games', req);
    if (r.status !== 201) { $('start-error').textContent = Ply.why(r.body); return; }
    const base = `${location.origin}/?game=${encodeURIComponent(r.body.id)}`;
    const links = Object.entries(r.body.seats).map(([name, t]) =>
      Ply.el('li', {}, Ply.el('a', { href: `${base}#token=${t}`, target: '_blank', class: 'seat-link', 'data-seat': name,
        text: `Play ${name}` })));
    links.push(Ply.el('li', {}, Ply.el('a', { href: base, target: '_blank', class: 'spectate-link', text: 'Watch' })));
    $('play-links').replaceChildren(...links);
    document.body.dataset.game = r.body.id;
  }

  init();
})();
