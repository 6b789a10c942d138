import { useEffect, useRef } from "react";

/**
 * Issue 13: asks the ticket list to show a tab — Working on after an Accept, the list the next
 * ticket lives in, the search box on `/`. The list owns its tabs; others only ask.
 */
export type InboxRequest = "working" | "waiting" | "search";

const bus = new EventTarget();

export function requestInbox(request: InboxRequest): void {
  bus.dispatchEvent(new CustomEvent<InboxRequest>("inbox", { detail: request }));
}

export function useInboxRequests(handler: (request: InboxRequest) => void): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const listener = (event: Event) => ref.current((event as CustomEvent<InboxRequest>).detail);
    bus.addEventListener("inbox", listener);
    return () => bus.removeEventListener("inbox", listener);
  }, []);
}
