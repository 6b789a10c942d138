import { afterAll, beforeAll } from "vitest";

/**
 * The test DOM lays nothing out (every element is 0 × 0): give each element a viewport of this size
 * so virtualised lists have rows to show. Returns what puts the DOM library's own getters back.
 *
 * Put back, not deleted: `clientHeight` and `clientWidth` are the DOM library's own getters on
 * `HTMLElement.prototype`, and a worker that keeps the library loaded between files (vitest's VM
 * pools) would otherwise hand the next file elements without them.
 */
export function layOutElements(size: { height: number; width: number } = { height: 600, width: 400 }): () => void {
  const proto = HTMLElement.prototype;
  const saved = (["clientHeight", "clientWidth"] as const).map(
    (name) => [name, Object.getOwnPropertyDescriptor(proto, name)] as const,
  );
  Object.defineProperty(proto, "clientHeight", { configurable: true, get: () => size.height });
  Object.defineProperty(proto, "clientWidth", { configurable: true, get: () => size.width });
  return () => {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(proto, name, descriptor);
      else Reflect.deleteProperty(proto, name);
    }
  };
}

/** `layOutElements` for every test of the calling `describe` (or file). */
export function laidOutElements(size?: { height: number; width: number }): void {
  let restore = () => {};
  beforeAll(() => {
    restore = layOutElements(size);
  });
  afterAll(() => restore());
}
