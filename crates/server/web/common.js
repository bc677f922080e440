// What the board and the playground share: calls to the API and building elements.
'use strict';

const Ply = {
  /** Calls the API: `{status, body}` (the body parsed as JSON when it is). */
  async api(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, init);
    } catch (e) {
      return { status: 0, body: { error: 'the server cannot be reached' } };
    }
    const text = await res.text();
    let parsed = text;
    try { parsed = JSON.parse(text); } catch (e) { /* not JSON */ }
    return { status: res.status, body: parsed };
  },

  /** An element with attributes (`text` sets its text) and children. */
  el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') e.textContent = v;
      else if (k === 'class') e.className = v;
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children) if (c) e.append(c);
    return e;
  },

  /** An error body's sentence (and the rule that refused, when one did). */
  why(body) {
    if (!body || typeof body !== 'object') return String(body || 'no answer');
    // The rule, when the sentence does not already name it.
    const rule = body.rule && !(body.error || '').includes(body.rule) ? ` (rule ${body.rule})` : '';
    return (body.error || 'refused') + rule;
  },

  /** The option inputs of a pack's options, in a fieldset; returns a function reading them. */
  optionInputs(fieldset, options, prefix) {
    fieldset.querySelectorAll('label, p').forEach((n) => n.remove());
    fieldset.hidden = options.length === 0;
    const read = [];
    for (const o of options) {
      const id = `${prefix}-${o.name}`;
      let input;
      if (o.type === 'bool') {
        input = Ply.el('input', { type: 'checkbox', id, name: o.name });
        input.checked = o.default === true;
        read.push(() => [o.name, input.checked]);
      } else {
        input = Ply.el('input', { type: 'number', id, name: o.name, value: String(o.default) });
        read.push(() => [o.name, parseInt(input.value, 10)]);
      }
      const label = Ply.el('label', { for: id }, input, ` ${o.name}`);
      fieldset.append(label);
      if (o.doc) fieldset.append(Ply.el('p', { class: 'muted', text: o.doc }));
    }
    return () => Object.fromEntries(read.map((f) => f()));
  },
};
