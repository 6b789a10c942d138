/**
 * The test DOM (happy-dom, jsdom in a few files) computes a style by matching every rule of every
 * stylesheet (emotion writes hundreds) against
 * the element, and Testing Library's role queries ask for the style of each element and of each of
 * its ancestors, on every retry of every wait: most of the web tests' CPU. The answers are kept per
 * element until anything in the document changes: a node, an attribute (inline styles included), a
 * character of text (stylesheets included), a rule inserted or deleted through the CSSOM, or focus
 * or the pointer moving (the pseudo-classes). The observer's records are taken before each answer, synchronously, so a change made just before a
 * query is never answered with the old style.
 */
const original = window.getComputedStyle.bind(window);
let known = new WeakMap<Element, CSSStyleDeclaration>();
const forget = () => {
  known = new WeakMap();
};
const observer = new MutationObserver(forget);
observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
// :focus-within, :focus and :hover change an element's style without changing the document.
for (const event of ["focusin", "focusout", "mouseover", "mouseout"]) document.addEventListener(event, forget, true);

// Wrapped once per DOM library, whatever the number of files: a worker of vitest's VM pools keeps
// the library (and its prototypes) loaded from one file to the next, and each file's wrapper would
// otherwise call every earlier file's `forget` (and keep their documents alive).
const UNWRAPPED = Symbol.for("zapdesk.computedStyleCache.unwrapped");
type CssomMethod = (...args: unknown[]) => unknown;
const cssom = CSSStyleSheet.prototype as unknown as Record<string | symbol, CssomMethod | Record<string, CssomMethod>>;
cssom[UNWRAPPED] ??= { insertRule: cssom.insertRule as CssomMethod, deleteRule: cssom.deleteRule as CssomMethod };
const unwrapped = cssom[UNWRAPPED] as Record<string, CssomMethod>;
for (const method of ["insertRule", "deleteRule"] as const) {
  const change = unwrapped[method];
  cssom[method] = function (this: CSSStyleSheet, ...args: unknown[]) {
    forget();
    return change.apply(this, args);
  };
}

window.getComputedStyle = (element: Element, pseudo?: string | null): CSSStyleDeclaration => {
  if (observer.takeRecords().length > 0) forget();
  if (pseudo) return original(element, pseudo);
  const style = known.get(element) ?? original(element);
  known.set(element, style);
  return style;
};
