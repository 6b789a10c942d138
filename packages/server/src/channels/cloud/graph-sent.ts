import { AsyncLocalStorage } from "node:async_hooks";
import { subscribe } from "node:diagnostics_channel";

/**
 * Whether a failed request had left: fetch says only "failed" or "timed out", but a send that
 * never reached Meta may be retried while one that did may already be on the customer's phone.
 * Node's fetch (undici) reports each request on diagnostics channels: `undici:request:create` in
 * the caller's async context, `undici:request:bodySent` once the whole body was written to the
 * socket. A call made inside `trackSending` learns from them whether its body went out.
 */
export interface SendingState {
  /** undici reported the request (false with a fetch that is not Node's: nothing is known). */
  seen: boolean;
  /** The whole body was written to the connection: Meta may have it. */
  sent: boolean;
}

const current = new AsyncLocalStorage<SendingState>();
const byRequest = new WeakMap<object, SendingState>();
let listening = false;

function listen() {
  if (listening) return;
  listening = true;
  subscribe("undici:request:create", (message) => {
    const state = current.getStore();
    const request = (message as { request?: object }).request;
    if (!state || !request) return;
    state.seen = true;
    byRequest.set(request, state);
  });
  subscribe("undici:request:bodySent", (message) => {
    const request = (message as { request?: object }).request;
    const state = request && byRequest.get(request);
    if (state) state.sent = true;
  });
}

/** Run one request, recording in `state` whether it was seen and whether its body was sent. */
export function trackSending<T>(state: SendingState, run: () => Promise<T>): Promise<T> {
  listen();
  return current.run(state, run);
}
