import type { Message, Ticket } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { shouldNotify } from "./should-notify";

const message = (over: Partial<Message> = {}) => ({ fromMe: false, read: false, ...over }) as Message;
const ticket = (over: Partial<Ticket> = {}) => ({ id: 1, userId: null, isGroup: false, ...over }) as Ticket;
const context = { userId: 5, admin: false, openTicketId: undefined as number | undefined, pageVisible: true };

describe("who is notified of a message (spec §6)", () => {
  it("notifies unread customer messages of one's own and unassigned tickets", () => {
    expect(shouldNotify(message(), ticket(), context)).toBe(true);
    expect(shouldNotify(message(), ticket({ userId: 5 }), context)).toBe(true);
  });

  it("never for others' tickets, groups, own messages or read ones", () => {
    expect(shouldNotify(message(), ticket({ userId: 6 }), context)).toBe(false);
    expect(shouldNotify(message(), ticket({ isGroup: true }), context)).toBe(false);
    expect(shouldNotify(message({ fromMe: true }), ticket(), context)).toBe(false);
    expect(shouldNotify(message({ read: true }), ticket(), context)).toBe(false);
  });

  it("not for the ticket open on screen, unless the page is hidden", () => {
    expect(shouldNotify(message(), ticket(), { ...context, openTicketId: 1 })).toBe(false);
    expect(shouldNotify(message(), ticket(), { ...context, openTicketId: 1, pageVisible: false })).toBe(true);
    expect(shouldNotify(message(), ticket(), { ...context, openTicketId: 2 })).toBe(true);
  });

  it("leaves an agent out while a queue's bot holds the ticket; admins hear of it (issue 23 §4)", () => {
    expect(shouldNotify(message(), ticket({ botHeld: true }), context)).toBe(false);
    expect(shouldNotify(message(), ticket({ botHeld: true }), { ...context, admin: true })).toBe(true);
    expect(shouldNotify(message(), ticket({ botHeld: false }), context)).toBe(true);
  });
});
