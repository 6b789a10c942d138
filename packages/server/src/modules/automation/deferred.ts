import type { Publisher } from "../../realtime/publisher.js";
import type { OutboundQueue, Outgoing } from "../messages/outbound-queue.js";

/**
 * What the services announce while an action list runs in one transaction, held back until it
 * commits: their realtime events and their outgoing messages' "wake the outbox and announce".
 * A list that rolled back is dropped, so nobody hears of a change that never happened.
 */
export interface DeferredEffects {
  events: Publisher;
  outbound: OutboundQueue;
  /** After commit: the events in the order the services published them, then the outgoing messages. */
  flush(): Promise<void>;
}

export function deferEffects(events: Publisher, outbound: OutboundQueue): DeferredEffects {
  const calls: (() => void)[] = [];
  const outgoings: Outgoing[] = [];
  const held: Publisher = {
    publish: (event, payload) => void calls.push(() => events.publish(event, payload)),
    publishTicket: (event, payload, scope) => void calls.push(() => events.publishTicket(event, payload, scope)),
    publishToUser: (event, payload, userId) => void calls.push(() => events.publishToUser(event, payload, userId)),
    ticketMoved: (ticketId, from, to) => void calls.push(() => events.ticketMoved(ticketId, from, to)),
    userAccessChanged: (userId, options) => void calls.push(() => events.userAccessChanged(userId, options)),
    endSessions: (userId, sessionIds) => void calls.push(() => events.endSessions(userId, sessionIds)),
    choosingVisibilityChanged: (enabled) => void calls.push(() => events.choosingVisibilityChanged(enabled)),
  };
  return {
    events: held,
    outbound: {
      begin() {
        const real = outbound.begin();
        return {
          enqueue: (tx, input) => real.enqueue(tx, input),
          // The service's own "after commit" comes before ours: keep it for flush().
          afterCommit: async () => void outgoings.push(real),
        };
      },
    },
    async flush() {
      for (const call of calls.splice(0)) call();
      for (const outgoing of outgoings.splice(0)) await outgoing.afterCommit();
    },
  };
}
