/* Building DOM nodes: every piece of data goes in as text or an attribute, never as HTML. */

/**
 * Make an element with its properties and children.
 *
 * `props` keys: `text` sets textContent, `dataset` merges data- attributes, a key the element
 * has as a property (className, hidden, type, tabIndex, title, value...) is set as that
 * property, any other key (aria-label, role...) as an attribute. Children are nodes or strings
 * (strings become text nodes); null, undefined and false are left out.
 *
 * @param {string} tag
 * @param {Record<string, unknown>} [props]
 * @param {...(Node|string|null|undefined|false)} children
 * @returns {HTMLElement}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === "text") el.textContent = String(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key in el) el[key] = value;
    else el.setAttribute(key, String(value));
  }
  el.append(...children.filter((child) => child !== null && child !== undefined && child !== false));
  return el;
}

/**
 * Join nodes with a text separator, for `el.append(...joined(nodes, " "))`.
 *
 * @param {Array<Node|string>} nodes
 * @param {string} separator
 * @returns {Array<Node|string>}
 */
export function joined(nodes, separator) {
  return nodes.flatMap((node, i) => (i ? [separator, node] : [node]));
}
