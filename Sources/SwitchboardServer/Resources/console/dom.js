// DOM helpers. Every value reaches the page as text (text nodes, textContent, attribute values
// set one by one): route ids, targets and URLs come from admins and route files, and are never
// parsed as markup.

/**
 * Makes an element.
 * @param {string} tag
 * @param {Object<string, *>} [attributes] `class`, `id`, `for`, `type`, `data-*`, …; `hidden`,
 *   `disabled`, `checked`, `selected`, `value` are set as properties; `on<event>` adds a listener.
 * @param {...(Node|string|number|null|undefined|Array)} children text or nodes (arrays flattened).
 * @returns {HTMLElement}
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      node.addEventListener(name.slice(2), value);
    } else if (['hidden', 'disabled', 'checked', 'selected', 'value', 'required'].includes(name)) {
      node[name] = value;
    } else {
      node.setAttribute(name, String(value));
    }
  }
  append(node, children);
  return node;
}

/** Appends text or nodes (arrays flattened; null and undefined skipped). */
export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Removes every child of `node`. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** A compact one-line JSON text of `value`, for targets and params. */
export function compact(value) {
  return value === undefined ? '' : JSON.stringify(value);
}

/** A small labelled badge: `kind` picks its colour (`ok`, `bad`, `warn`, `muted`, `info`). */
export function badge(label, kind = 'muted') {
  return el('span', { class: `badge ${kind}` }, label);
}

/** A `<dl>` of label and value pairs (values may be nodes). */
export function facts(pairs) {
  const list = el('dl', { class: 'facts' });
  for (const [label, value] of pairs) {
    if (value === undefined || value === null || value === '') continue;
    list.append(el('dt', {}, label), el('dd', {}, value));
  }
  return list;
}

/** A labelled input inside a `<label>`. */
export function field(label, input) {
  return el('label', { class: 'field' }, el('span', {}, label), input);
}
