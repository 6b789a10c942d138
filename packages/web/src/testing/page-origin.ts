import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Vitest's JSDOM instance (jsdom environment): the page's address can change before the app runs. */
const page = (globalThis as unknown as { jsdom: { reconfigure(options: { url: string }): void } }).jsdom;

/**
 * Listens on a free port and makes it the page's origin, for a real server the app reaches at its
 * own host (the socket). A fixed port would collide with another run of the suite on the machine.
 */
export async function listenAsPageOrigin(http: Server): Promise<void> {
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  page.reconfigure({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/` });
}
