import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Connection } from "@zapdesk/core";
import { describe, expect, it, vi } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, type FakeRequest, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aCloudConnection, aConnection } from "../../../testing/fixtures";
import { fill } from "../../../testing/messages";
import { renderWithProviders } from "../../../testing/render";
import ConnectionsPage, { HEALTH_REFRESH_MS } from "./connections-page";

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

async function showPage(list: () => Connection[], routes = {}, fakeTimers = false) {
  await i18n.changeLanguage("en");
  const api = fakeApi({ "GET /api/whatsapp": () => ({ body: list() }), ...routes });
  signedInAs(api, ADMIN);
  const user = userEvent.setup(fakeTimers ? { advanceTimers: vi.advanceTimersByTime.bind(vi) } : {});
  await renderWithProviders(<ConnectionsPage />);
  await screen.findByRole("table", { name: "Connections" });
  return { api, user };
}

const rowOf = async (name: string) => (await screen.findByRole("cell", { name })).closest("tr") as HTMLElement;

describe("the connections screen", () => {
  it("explains each status reason with its fix, shows the kind, and offers only the session actions that apply", async () => {
    const qr = aConnection({ id: 3, name: "Sales phone", status: "DISCONNECTED", statusReason: "REPLACED" });
    const cloud = aCloudConnection({ status: "DISCONNECTED", statusReason: "TOKEN_INVALID" });
    await showPage(() => [qr, cloud]);

    const replaced = await screen.findByRole("alert", { name: "Why Sales phone is in this status" });
    expect(replaced).toHaveTextContent("Session opened elsewhere");
    expect(replaced).toHaveTextContent("Disconnect the other one (WhatsApp > Linked devices)");
    const token = screen.getByRole("alert", { name: "Why Official is in this status" });
    expect(token).toHaveTextContent("Token invalid or expired");
    expect(token).toHaveTextContent("Generate a new permanent System User token");

    const qrRow = await rowOf("Sales phone");
    expect(within(qrRow).getByRole("cell", { name: "QR code" })).toBeInTheDocument();
    expect(within(qrRow).getByRole("button", { name: "Try again" })).toBeInTheDocument();
    expect(within(qrRow).getByRole("button", { name: "New QR Code" })).toBeInTheDocument();

    const cloudRow = await rowOf("Official");
    expect(within(cloudRow).getByRole("cell", { name: "Official API" })).toBeInTheDocument();
    expect(within(cloudRow).getByRole("button", { name: "Check Official again" })).toBeInTheDocument();
    for (const name of ["Try again", "New QR Code", "QR Code", "Disconnect"]) {
      expect(within(cloudRow).queryByRole("button", { name })).toBeNull();
    }
  });

  it("a link that did not complete offers one action, pairing again", async () => {
    await showPage(() => [
      aConnection({ id: 5, name: "Expired", status: "DISCONNECTED", statusReason: "QR_TIMEOUT" }),
      aConnection({
        id: 6,
        name: "Stalled",
        status: "DISCONNECTED",
        statusReason: "PAIRING_STALLED",
        pairingPhone: "5511999990000",
      }),
    ]);
    for (const [name, title] of [
      ["Expired", "The QR code expired"],
      ["Stalled", "The link did not finish"],
    ]) {
      expect(await screen.findByRole("alert", { name: `Why ${name} is in this status` })).toHaveTextContent(title);
      const row = await rowOf(name);
      expect(within(row).getByRole("button", { name: "New QR Code" })).toBeInTheDocument();
      expect(within(row).queryByRole("button", { name: "Try again" })).toBeNull();
    }
  });

  it("says when no server process holds a connection (scaled out), while another takes it over", async () => {
    await showPage(() => [aConnection({ id: 4, name: "Support", status: "TIMEOUT", statusReason: "NO_OWNER" })]);
    const orphan = await screen.findByRole("alert", { name: "Why Support is in this status" });
    expect(orphan).toHaveTextContent("No server is running this connection");
    expect(orphan).toHaveTextContent("Another one takes it over within seconds");
    for (const language of ["pt", "es"]) {
      expect(i18n.getFixedT(language)("connections.reasons.NO_OWNER.title")).not.toMatch(/NO_OWNER|No server/);
    }
  });

  it("'check again' on a Cloud connection asks the server to check the token", async () => {
    const { api, user } = await showPage(() => [aCloudConnection({ status: "CONNECTED" })], {
      "POST /api/whatsappsession/:id": { body: {} },
    });
    await user.click(await screen.findByRole("button", { name: "Check Official again" }));
    await waitFor(() => expect(api.callsTo("POST", "/api/whatsappsession/8")).toHaveLength(1));
  });

  it("shows the health of a connection: last event, backlog and since when, reconnects, last error", async () => {
    const health = {
      lastEventAt: minutesAgo(3),
      pendingEvents: 5,
      spooledEvents: 0,
      oldestPendingAt: minutesAgo(2),
      reconnectsToday: 4,
      lastError: "Stream Errored (conflict)",
      lastErrorAt: minutesAgo(1),
    };
    const { user } = await showPage(() => [aConnection({ name: "Sales phone", health })]);
    const button = await screen.findByRole("button", { name: "Health of Sales phone: Last event 3 minutes ago" });
    await user.click(button);
    const popover = await screen.findByRole("dialog", { name: "Health of Sales phone" });
    expect(popover).toHaveTextContent("Pending events5 waiting, the oldest since 2 minutes ago");
    expect(popover).toHaveTextContent("Reconnects today4");
    expect(popover).toHaveTextContent("Last errorStream Errored (conflict) (1 minute ago)");
  });

  it("counts what waits on disk for the database (messages received while it was unreachable)", async () => {
    const health = {
      lastEventAt: minutesAgo(1),
      pendingEvents: 0,
      spooledEvents: 12,
      oldestPendingAt: null,
      reconnectsToday: 0,
      lastError: null,
      lastErrorAt: null,
    };
    const { user } = await showPage(() => [aConnection({ name: "Sales phone", health })]);
    await user.click(await screen.findByRole("button", { name: "Health of Sales phone: Last event 1 minute ago" }));
    const popover = await screen.findByRole("dialog", { name: "Health of Sales phone" });
    expect(popover).toHaveTextContent(
      "Waiting on disk12 messages received while the database was unreachable, kept on the server's disk until it answers",
    );
  });

  it("reads the list again while the page is open, so health stays current", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let lastEventAt = minutesAgo(10);
    const health = () => ({
      lastEventAt,
      pendingEvents: 0,
      spooledEvents: 0,
      oldestPendingAt: null,
      reconnectsToday: 0,
      lastError: null,
      lastErrorAt: null,
    });
    const { api } = await showPage(() => [aConnection({ name: "Sales phone", health: health() })], {}, true);
    await screen.findByRole("button", { name: /Last event 10 minutes ago/ });
    const reads = api.callsTo("GET", "/api/whatsapp").length;
    lastEventAt = new Date().toISOString();
    await act(async () => {
      vi.advanceTimersByTime(HEALTH_REFRESH_MS + 100);
    });
    await waitFor(() => expect(api.callsTo("GET", "/api/whatsapp").length).toBeGreaterThan(reads));
    // The fake clock moved on by the refresh interval: the event is now some seconds old.
    expect(await screen.findByRole("button", { name: /Last event (now|\d+ seconds ago)/ })).toBeInTheDocument();
  });

  it("'New QR Code' may pair with a phone number instead; the dialog then shows the code WhatsApp gave", async () => {
    let current = aConnection({ name: "Sales phone", status: "DISCONNECTED" });
    const { api, user } = await showPage(() => [current], {
      "PUT /api/whatsappsession/:id": (request: FakeRequest) => {
        const { pairingPhone } = request.body as { pairingPhone: string };
        current = { ...current, status: "qrcode", pairingPhone, pairingCode: "K7QP2MZX" };
        return { body: {} };
      },
    });
    await user.click(await screen.findByRole("button", { name: "New QR Code" }));
    const dialog = await screen.findByRole("dialog", { name: "Pair Sales phone again" });
    await user.click(within(dialog).getByRole("radio", { name: /Type a code on the phone/ }));
    await fill(user, within(dialog).getByLabelText("Phone number"), "12");
    await user.click(within(dialog).getByRole("button", { name: "Pair" }));
    expect(await within(dialog).findByText("Invalid number")).toBeInTheDocument();
    await fill(user, within(dialog).getByLabelText("Phone number"), "+55 11 99999-0000");
    await user.click(within(dialog).getByRole("button", { name: "Pair" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/whatsappsession/3")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/whatsappsession/3")[0].body).toEqual({ pairingPhone: "5511999990000" });
    expect(await screen.findByRole("img", { name: "Pairing code K7QP 2MZX" })).toHaveTextContent("K7QP-2MZX");
  });

  it("choosing the QR code again forgets the phone number", async () => {
    const current = aConnection({ name: "Sales phone", status: "DISCONNECTED", pairingPhone: "5511999990000" });
    const { api, user } = await showPage(() => [current], { "PUT /api/whatsappsession/:id": { body: {} } });
    await user.click(await screen.findByRole("button", { name: "New QR Code" }));
    const dialog = await screen.findByRole("dialog", { name: "Pair Sales phone again" });
    expect(within(dialog).getByRole("radio", { name: /Type a code on the phone/ })).toBeChecked();
    await user.click(within(dialog).getByRole("radio", { name: "Scan a QR code" }));
    await user.click(within(dialog).getByRole("button", { name: "Pair" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/whatsappsession/3")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/whatsappsession/3")[0].body).toEqual({ pairingPhone: null });
  });

  it("a new Cloud connection stays open once saved, now showing the webhook URL to paste into Meta", async () => {
    const created = aCloudConnection({
      id: 12,
      cloud: { ...aCloudConnection().cloud!, webhookUrl: "https://desk.example.com/api/webhooks/whatsapp/12" },
    });
    const { user } = await showPage(() => [], {
      "POST /api/whatsapp": { status: 201, body: created },
      "GET /api/whatsapp/:id": { body: created },
    });
    await user.click(screen.getByRole("button", { name: "Add WhatsApp" }));
    await fill(user, await screen.findByLabelText("Name"), "Official");
    await user.click(screen.getByRole("radio", { name: "Official API (Cloud)" }));
    await fill(user, screen.getByLabelText("Phone number ID"), "106540352242922");
    await fill(user, screen.getByLabelText("WhatsApp Business Account ID (WABA)"), "102290129340398");
    await fill(user, screen.getByLabelText("Access token"), "EAAG-token");
    await fill(user, screen.getByLabelText("App secret"), "app-secret");
    await user.click(screen.getByRole("button", { name: "Add" }));
    expect(await screen.findByRole("dialog", { name: "Edit WhatsApp" })).toBeInTheDocument();
    expect(await screen.findByLabelText("Callback URL (webhook)")).toHaveValue(
      "https://desk.example.com/api/webhooks/whatsapp/12",
    );
  });

  it("on a phone (below 600 px) the session's buttons sit in the pinned actions column, not in a column that scrolls away", async () => {
    const wide = (query: string) => /min-width:\s*600px/.test(query);
    const media = (matches: (query: string) => boolean) => (query: string) => ({
      matches: matches(query),
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    });
    vi.stubGlobal(
      "matchMedia",
      media((query) => !wide(query)),
    );
    await showPage(() => [
      aConnection({ id: 3, name: "Sales phone", status: "CONNECTED" }),
      aConnection({ id: 4, name: "Old phone", status: "DISCONNECTED", isDefault: false }),
    ]);
    expect(screen.queryByRole("columnheader", { name: "Session" })).toBeNull();
    const lastCell = async (name: string) =>
      within(await rowOf(name))
        .getAllByRole("cell")
        .at(-1) as HTMLElement;
    const connected = await lastCell("Sales phone");
    expect(within(connected).getByRole("button", { name: "Disconnect" })).toBeInTheDocument();
    expect(within(connected).getByRole("button", { name: "Edit Sales phone" })).toBeInTheDocument();
    const disconnected = await lastCell("Old phone");
    expect(within(disconnected).getByRole("button", { name: "Try again" })).toBeInTheDocument();
    expect(within(disconnected).getByRole("button", { name: "New QR Code" })).toBeInTheDocument();
    expect(within(disconnected).getByRole("button", { name: "Delete Old phone" })).toBeInTheDocument();
  });

  it("on a wide screen the session's buttons have a column of their own", async () => {
    await showPage(() => [aConnection({ id: 3, name: "Sales phone", status: "CONNECTED" })]);
    expect(screen.getByRole("columnheader", { name: "Session" })).toBeInTheDocument();
    const cells = within(await rowOf("Sales phone")).getAllByRole("cell");
    expect(within(cells.at(-1) as HTMLElement).queryByRole("button", { name: "Disconnect" })).toBeNull();
    expect(within(cells[4] as HTMLElement).getByRole("button", { name: "Disconnect" })).toBeInTheDocument();
  });
});
