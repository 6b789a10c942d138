import { describe, expect, it } from "vitest";
import type { TicketRow } from "../tickets/tickets.repo.js";
import { isBatchable, movedScope, pickTicket, reopenWindowStart, scopeOfTicket, tallyInbound } from "./ticket-rules.js";

const at = (iso: string) => new Date(iso);
const ticket = (overrides: Partial<TicketRow>) =>
  ({
    id: 1,
    status: "closed",
    userId: null,
    queueId: null,
    menuSentAt: null,
    updatedAt: at("2026-01-01T10:00:00Z"),
    ...overrides,
  }) as TicketRow;
const item = (overrides: Partial<Parameters<typeof tallyInbound>[0][number]> = {}) => ({
  fromMe: false,
  timestamp: at("2026-01-01T10:00:00Z"),
  type: "chat",
  body: "hi",
  ...overrides,
});

describe("inbound ticket rules", () => {
  it("joins the active ticket, else reopens the latest that moved within the window, else none", () => {
    const since = reopenWindowStart(at("2026-01-01T12:00:00Z"), 7200, false);
    const active = ticket({ id: 2, status: "open" });
    const recent = ticket({ id: 3, updatedAt: at("2026-01-01T11:00:00Z") });
    const older = ticket({ id: 4, updatedAt: at("2026-01-01T10:30:00Z") });
    const stale = ticket({ id: 5, updatedAt: at("2026-01-01T09:00:00Z") });
    expect(pickTicket([recent, active], since)).toEqual({ ticket: active, reopen: false });
    expect(pickTicket([older, recent, stale], since)).toEqual({ ticket: recent, reopen: true });
    expect(pickTicket([stale], since)).toBeUndefined();
    // A group's ticket is reopened whatever its age.
    expect(pickTicket([stale], reopenWindowStart(at("2026-01-01T12:00:00Z"), 7200, true))?.ticket).toBe(stale);
  });

  it("previews the last message, counts and dates only the customer's", () => {
    expect(
      tallyInbound([
        item({ body: "one", timestamp: at("2026-01-01T10:00:05Z") }),
        item({ body: "two", timestamp: at("2026-01-01T10:00:01Z") }),
        item({ body: "ours", fromMe: true, timestamp: at("2026-01-01T10:00:09Z") }),
      ]),
    ).toEqual({ preview: "ours", unread: 2, latest: at("2026-01-01T10:00:05Z") });
    expect(tallyInbound([item({ type: "image", body: "", media: { name: "photo.jpg" } })]).preview).toBe("photo.jpg");
    expect(tallyInbound([item({ fromMe: true })])).toMatchObject({ unread: 0, latest: null });
  });

  it("says who had the ticket and who has it when it changed hands, and nothing otherwise", () => {
    const before = scopeOfTicket(ticket({ userId: 7, queueId: 1 }));
    expect(movedScope(before, scopeOfTicket(ticket({ userId: 7, queueId: 1 })))).toBeUndefined();
    expect(movedScope(undefined, before)).toBeUndefined();
    const reopened = scopeOfTicket(ticket({ userId: null, queueId: 1 }));
    expect(movedScope(before, reopened)).toEqual({ from: before, to: reopened });
    const choosing = scopeOfTicket(ticket({ menuSentAt: at("2026-01-01T10:00:00Z") }));
    expect(movedScope(scopeOfTicket(ticket({})), choosing)?.to.choosing).toBe(true);
  });

  it("decides the road once: plain customer messages (a queue menu too: issue 23 §3)", () => {
    expect(isBatchable({ fromMe: false, isGroup: false, chat: "5511999990000" })).toBe(true);
    expect(isBatchable({ fromMe: true, isGroup: false, chat: "5511999990000" })).toBe(false);
    expect(isBatchable({ fromMe: false, isGroup: false, chat: "5511999990000", quotedWid: "X" })).toBe(false);
  });
});
