import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import i18n, { i18nReady } from "../lib/i18n";
import { clearToasts } from "../lib/toast";
import { settleAsyncWork } from "./leak-guard";
import "./computed-style-cache";

// As in main: components render once the active language is loaded.
await i18nReady;

// Lazy routes and MUI transitions are slow under parallel test files, and slower still when the
// machine runs another suite beside this one: wait longer than the default second.
configure({ asyncUtilTimeout: 20_000 });

// A test without the fake API (fake-api.ts) reaches no server: its requests fail at once, as Node's
// fetch fails a relative URL. happy-dom's own fetch would try http://localhost:3000 and fail later,
// after the test, with the query library's retry timers still running. fakeApi() stubs over this.
globalThis.fetch = async (input: RequestInfo | URL) => {
  throw new TypeError(`no fake API answers ${String(input instanceof Request ? input.url : input)} in this test`);
};

// The test DOM has no layout engine: report a wide screen so the drawer starts open (spec §2).
Object.defineProperty(window, "matchMedia", {
  writable: true,
  value: (query: string) => ({
    matches: /min-width:\s*600px/.test(query),
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }),
});

afterEach(async ({ task }) => {
  cleanup();
  vi.useRealTimers();
  localStorage.clear();
  await i18n.changeLanguage("pt");
  // What the test started ends here, with the fake server still answering (leak-guard.ts).
  // A test that already failed (timed out half-way) is not also blamed for what it left.
  await settleAsyncWork(clearToasts, { report: task.result?.state !== "fail" });
  vi.unstubAllGlobals();
  // A spy on a prototype of the DOM library (an anchor's click) would outlive its file in a worker
  // of vitest's VM pools, which keeps the library loaded between files.
  vi.restoreAllMocks();
});
