import { useQueryClient } from "@tanstack/react-query";
import { act, screen, waitFor } from "@testing-library/react";
import type { Message, RealtimePayloads } from "@zapdesk/core";
import { useEffect } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useAuth } from "../../../lib/auth";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aConnection, aTicket } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { notificationKeys, type UnreadTickets } from "../api/get-unread-tickets";
import { useNotificationHandlers } from "./use-notification-handlers";

function Probe({ event, onOpen }: { event: RealtimePayloads["ticketAssigned"]; onOpen(id: number): void }) {
  const handlers = useNotificationHandlers({ onOpenTicket: onOpen });
  useEffect(() => handlers.ticketAssigned(event), [handlers, event]);
  return null;
}

afterEach(() => vi.unstubAllGlobals());

describe("an automatic assignment (issue 13)", () => {
  it("tells the assignee with a browser notification that opens the ticket; nobody else", async () => {
    const shown: { title: string; options: NotificationOptions; onclick?: () => void }[] = [];
    const FakeNotification = vi.fn(function (this: { close(): void }, title: string, options: NotificationOptions) {
      const entry = { title, options } as (typeof shown)[number];
      shown.push(entry);
      Object.defineProperty(this, "onclick", { set: (fn: () => void) => (entry.onclick = fn) });
      this.close = () => {};
    });
    vi.stubGlobal("Notification", Object.assign(FakeNotification, { permission: "granted" }));
    signedInAs(
      fakeApi({ "GET /api/me/notification-preferences": { body: { sound: false, desktop: true, push: false } } }),
      AGENT,
    );
    const onOpen = vi.fn();
    const ticket = aTicket({ id: 41, lastMessage: "Meu pedido atrasou", userId: AGENT.id, status: "open" });
    await renderWithProviders(<Probe event={{ ticket, userId: AGENT.id + 1 }} onOpen={onOpen} />);
    await renderWithProviders(<Probe event={{ ticket, userId: AGENT.id }} onOpen={onOpen} />);
    await waitFor(() => expect(shown).toHaveLength(1));
    expect(shown[0].title).toBe(`Novo atendimento atribuído a você: ${ticket.contact.name}`);
    expect(shown[0].options).toMatchObject({ body: "Meu pedido atrasou", tag: "ticket-41" });
    shown[0].onclick?.();
    expect(onOpen).toHaveBeenCalledWith(41);
  });
});

function RestrictionProbe({ event, onOpen }: { event: RealtimePayloads["connectionRestricted"]; onOpen(): void }) {
  const handlers = useNotificationHandlers({ onOpenTicket: () => {}, onOpenConnections: onOpen });
  useEffect(() => handlers.connectionRestricted(event), [handlers, event]);
  return null;
}

describe("a restricted connection", () => {
  it("tells the admin with a browser notification that opens the Connections screen", async () => {
    const shown: { title: string; options: NotificationOptions; onclick?: () => void }[] = [];
    const FakeNotification = vi.fn(function (this: { close(): void }, title: string, options: NotificationOptions) {
      const entry = { title, options } as (typeof shown)[number];
      shown.push(entry);
      Object.defineProperty(this, "onclick", { set: (fn: () => void) => (entry.onclick = fn) });
      this.close = () => {};
    });
    vi.stubGlobal("Notification", Object.assign(FakeNotification, { permission: "granted" }));
    signedInAs(
      fakeApi({ "GET /api/me/notification-preferences": { body: { sound: false, desktop: true, push: false } } }),
      ADMIN,
    );
    const onOpen = vi.fn();
    await renderWithProviders(<RestrictionProbe event={{ whatsapp: aConnection({ id: 7, name: "Vendas" }) }} onOpen={onOpen} />);
    await waitFor(() => expect(shown).toHaveLength(1));
    expect(shown[0].title).toBe("Vendas: o WhatsApp restringiu este número");
    expect(shown[0].options).toMatchObject({ tag: "connection-7" });
    shown[0].onclick?.();
    expect(onOpen).toHaveBeenCalled();
  });
});

// Issue 23 §4: the bell lists what the server's list without a status lists: an agent's leaves out
// the tickets a queue's bot holds, an admin's keeps them.
describe("a ticket a bot holds, in the bell", () => {
  let bell: (() => UnreadTickets | undefined) | undefined;
  let handlers: ReturnType<typeof useNotificationHandlers> | undefined;
  function BellProbe() {
    const client = useQueryClient();
    const { user } = useAuth();
    handlers = useNotificationHandlers({ onOpenTicket: () => {} });
    bell = () => client.getQueryData<UnreadTickets>(notificationKeys.unread);
    if (user && !bell()) client.setQueryData<UnreadTickets>(notificationKeys.unread, { tickets: [waiting], count: 1 });
    return user ? <p>signed in</p> : null;
  }
  const waiting = aTicket({ id: 51, status: "pending", userId: null, unreadMessages: 1 });
  const message = { id: 9, ticketId: 51, fromMe: false, read: false, body: "oi" } as Message;

  async function bellAfterBotEvents(user: typeof ADMIN) {
    signedInAs(
      fakeApi({ "GET /api/me/notification-preferences": { body: { sound: false, desktop: false, push: false } } }),
      user,
    );
    await renderWithProviders(<BellProbe />);
    await screen.findByText("signed in");
    const held = aTicket({ id: 52, status: "pending", userId: null, unreadMessages: 1, botHeld: true });
    act(() =>
      handlers?.appMessage({ action: "create", message: { ...message, ticketId: 52 }, ticket: held, contact: held.contact }),
    );
    act(() => handlers?.ticket({ action: "update", ticket: { ...waiting, unreadMessages: 2, botHeld: true } }));
    return bell?.()?.tickets.map((t) => t.id);
  }

  it("leaves an agent's", async () => {
    expect(await bellAfterBotEvents(AGENT)).toEqual([]);
  });

  it("stays in an admin's", async () => {
    expect(await bellAfterBotEvents(ADMIN)).toEqual([52, 51]);
  });
});
