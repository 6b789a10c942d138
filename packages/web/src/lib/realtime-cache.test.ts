import { type InfiniteData, QueryClient } from "@tanstack/react-query";
import type { Connection, Contact, Message, Queue, Setting, Ticket, User } from "@zapdesk/core";
import { describe, expect, it, vi } from "vitest";
import { messageKeys } from "../features/conversation/api/message-keys";
import { notificationKeys } from "../features/notifications/api/get-unread-tickets";
import { ticketKeys } from "../features/tickets/api/ticket-keys";
import { ADMIN, AGENT } from "../testing/fake-api";
import { aMessage, aTicket } from "../testing/fixtures";
import type { Page } from "./list-cache";
import { queryKeys } from "./query-keys";
import { listEventHandlers } from "./realtime-cache";

type UserPages = InfiniteData<Page<"users", User>>;
const pages = (...lists: User[][]): UserPages => ({
  pages: lists.map((users, i) => ({ users, count: 3, hasMore: i < lists.length - 1 })),
  pageParams: lists.map((_l, i) => i + 1),
});
const names = (data: UserPages | undefined) => data?.pages.map((p) => p.users.map((u) => u.name));

function setup() {
  const client = new QueryClient();
  const onSelf = vi.fn();
  return { client, onSelf, handlers: listEventHandlers(client, onSelf, ADMIN.id) };
}

describe("list events update the cache (spec §4 Lists)", () => {
  const third: User = { ...AGENT, id: 3, name: "Carla", email: "carla@zapdesk.local" };

  it("inserts a created user at the top of lists whose search it matches, and nowhere else", () => {
    const { client, handlers } = setup();
    client.setQueryData(queryKeys.users.list(""), pages([ADMIN], [AGENT]));
    client.setQueryData(queryKeys.users.list("smith"), pages([AGENT]));
    handlers.user({ action: "create", user: third });
    expect(names(client.getQueryData(queryKeys.users.list("")))).toEqual([["Carla", "Administrator"], ["Agent Smith"]]);
    expect(names(client.getQueryData(queryKeys.users.list("smith")))).toEqual([["Agent Smith"]]);
  });

  it("replaces an updated user where it is, on any page", () => {
    const { client, handlers, onSelf } = setup();
    client.setQueryData(queryKeys.users.list(""), pages([ADMIN], [AGENT]));
    handlers.user({ action: "update", user: { ...AGENT, name: "Agent Renamed" } });
    expect(names(client.getQueryData(queryKeys.users.list("")))).toEqual([["Administrator"], ["Agent Renamed"]]);
    expect(onSelf).not.toHaveBeenCalled();
  });

  it("passes an update about oneself to the session", () => {
    const { handlers, onSelf } = setup();
    handlers.user({ action: "update", user: { ...ADMIN, name: "Boss" } });
    expect(onSelf).toHaveBeenCalledWith(expect.objectContaining({ name: "Boss" }));
  });

  it("removes a deleted user from every page", () => {
    const { client, handlers } = setup();
    client.setQueryData(queryKeys.users.list(""), pages([ADMIN], [AGENT]));
    handlers.user({ action: "delete", userId: AGENT.id });
    expect(names(client.getQueryData(queryKeys.users.list("")))).toEqual([["Administrator"], []]);
  });

  it("keeps contact lists and the open contact in step", () => {
    const { client, handlers } = setup();
    const contact = { id: 9, name: "Maria", number: "551199", email: "", profilePicUrl: "", isGroup: false } as Contact;
    client.setQueryData(queryKeys.contacts.list(""), { pages: [{ contacts: [], count: 0, hasMore: false }], pageParams: [1] });
    client.setQueryData(queryKeys.contacts.detail(9), { ...contact, extraInfo: [{ id: 1, name: "CPF", value: "1" }] });
    handlers.contact({ action: "create", contact });
    handlers.contact({ action: "update", contact: { ...contact, name: "Maria Silva" } });
    expect(client.getQueryData<InfiniteData<Page<"contacts", Contact>>>(queryKeys.contacts.list(""))?.pages[0].contacts).toEqual([
      { ...contact, name: "Maria Silva" },
    ]);
    expect(client.getQueryData<Contact>(queryKeys.contacts.detail(9))?.extraInfo).toHaveLength(1);
    handlers.contact({ action: "delete", contactId: 9 });
    expect(client.getQueryData(queryKeys.contacts.detail(9))).toBeUndefined();
  });

  it("an edited contact reaches every ticket and message that shows it: rows, the open ticket, the bell, the chat", () => {
    const { client, handlers } = setup();
    const maria = aTicket({ id: 7, contact: { id: 5, name: "Maria", number: "5511988887777", profilePicUrl: "" } });
    const other = aTicket({ id: 8, contactId: 6, contact: { id: 6, name: "João", number: "5511977776666", profilePicUrl: "" } });
    const listKey = ticketKeys.list({ status: "open", searchParam: "", showAll: false, queueIds: [] });
    client.setQueryData(listKey, { pages: [{ tickets: [maria, other], count: 2, hasMore: false }], pageParams: [1] });
    client.setQueryData(ticketKeys.detail(7), { ...maria, contact: { ...maria.contact, extraInfo: [] } });
    client.setQueryData(notificationKeys.unread, { tickets: [maria], count: 1 });
    const fromMaria = aMessage({ id: 1, ticketId: 7, contact: maria.contact });
    client.setQueryData(messageKeys.list(7), {
      pages: [{ messages: [fromMaria], ticket: maria, count: 1, hasMore: false }],
      pageParams: [1],
    });

    const edited = {
      ...maria.contact,
      name: "Maria Silva",
      email: "",
      isGroup: false,
      extraInfo: [{ id: 1, name: "CPF", value: "123" }],
      tags: [],
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-02T00:00:00.000Z",
    } satisfies Contact;
    const untouched = client.getQueryData<{ pages: { tickets: Ticket[] }[] }>(listKey)?.pages[0].tickets[1];
    handlers.contact({ action: "update", contact: edited });

    const list = client.getQueryData<{ pages: { tickets: Ticket[] }[] }>(listKey);
    expect(list?.pages[0].tickets.map((t) => t.contact.name)).toEqual(["Maria Silva", "João"]);
    expect(list?.pages[0].tickets[1]).toBe(untouched);
    expect(client.getQueryData<Ticket>(ticketKeys.detail(7))?.contact).toEqual({
      id: 5,
      name: "Maria Silva",
      number: "5511988887777",
      profilePicUrl: "",
      extraInfo: [{ id: 1, name: "CPF", value: "123" }],
    });
    expect(client.getQueryData<{ tickets: Ticket[] }>(notificationKeys.unread)?.tickets[0].contact.name).toBe("Maria Silva");
    const chat = client.getQueryData<{ pages: { messages: Message[]; ticket: Ticket }[] }>(messageKeys.list(7));
    expect(chat?.pages[0].messages[0].contact?.name).toBe("Maria Silva");
    expect(chat?.pages[0].ticket.contact.name).toBe("Maria Silva");
  });

  it("upserts and removes queues and connections", () => {
    const { client, handlers } = setup();
    const queue = { id: 1, name: "Sales", color: "#B80000", greetingMessage: "", createdAt: "", updatedAt: "" } as Queue;
    client.setQueryData(queryKeys.queues.all, []);
    handlers.queue({ action: "create", queue });
    handlers.queue({ action: "update", queue: { ...queue, name: "Vendas" } });
    expect(client.getQueryData<Queue[]>(queryKeys.queues.all)).toEqual([{ ...queue, name: "Vendas" }]);
    handlers.queue({ action: "delete", queueId: 1 });
    expect(client.getQueryData<Queue[]>(queryKeys.queues.all)).toEqual([]);

    const connection = { id: 4, name: "Front", status: "OPENING", qrcode: "", retries: 0, updatedAt: "t0" } as Connection;
    client.setQueryData(queryKeys.whatsapps.all, [connection]);
    handlers.whatsappSession({ action: "update", session: { ...connection, status: "qrcode", qrcode: "QR", updatedAt: "t1" } });
    expect(client.getQueryData<Connection[]>(queryKeys.whatsapps.all)?.[0]).toMatchObject({
      status: "qrcode",
      qrcode: "QR",
      updatedAt: "t1",
    });
    // A session update carries the reason, the phone pairing code and the health the screen explains.
    const health = {
      lastEventAt: "t2",
      pendingEvents: 2,
      spooledEvents: 0,
      oldestPendingAt: "t1",
      reconnectsToday: 1,
      lastError: null,
      lastErrorAt: null,
    };
    handlers.whatsappSession({
      action: "update",
      session: { ...connection, status: "DISCONNECTED", statusReason: "REPLACED", pairingCode: "ABCD1234", health },
    });
    expect(client.getQueryData<Connection[]>(queryKeys.whatsapps.all)?.[0]).toMatchObject({
      status: "DISCONNECTED",
      statusReason: "REPLACED",
      pairingCode: "ABCD1234",
      health,
    });
    handlers.whatsapp({ action: "delete", whatsappId: 4 });
    expect(client.getQueryData<Connection[]>(queryKeys.whatsapps.all)).toEqual([]);
  });

  it("updates settings, and public settings only for keys they already carry", () => {
    const { client, handlers } = setup();
    client.setQueryData<Setting[]>(queryKeys.settings.all, [{ key: "userCreation", value: "enabled" }]);
    client.setQueryData<Setting[]>(queryKeys.publicSettings.all, [{ key: "userCreation", value: "enabled" }]);
    handlers.settings({ action: "update", setting: { key: "userCreation", value: "disabled" } });
    handlers.settings({ action: "update", setting: { key: "call", value: "disabled" } });
    expect(client.getQueryData(queryKeys.settings.all)).toEqual([
      { key: "userCreation", value: "disabled" },
      { key: "call", value: "disabled" },
    ]);
    expect(client.getQueryData(queryKeys.publicSettings.all)).toEqual([{ key: "userCreation", value: "disabled" }]);
  });
});
