import {
  can,
  canAccessTicket,
  isAdmin,
  SCHEDULE_MAX_AHEAD_MS,
  SCHEDULE_PAGE_SIZE,
  SCHEDULE_PAST_SLACK_MS,
  type Schedule,
  type ScheduleCreateInput,
  type ScheduleListQuery,
  type ScheduleUpdateInput,
} from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import { AppError, fieldError } from "../../lib/app-error.js";
import type { Clock } from "../../lib/clock.js";
import type { MediaStorage } from "../../media/storage.js";
import type { Publisher } from "../../realtime/publisher.js";
import { findConnection, findDefaultConnection } from "../connections/connections.repo.js";
import { findContactById } from "../contacts/contacts.repo.js";
import { removeStored, storeBuffer, type UploadedMedia } from "../messages/uploads.js";
import * as ticketsRepo from "../tickets/tickets.repo.js";
import { scopeOf, type TicketService } from "../tickets/tickets.service.js";
import type { AuthUser } from "../users/users.repo.js";
import * as repo from "./schedules.repo.js";

/** A file attached to a schedule, read from the request and stored only once every check passed. */
export interface ScheduleFile {
  data: Buffer;
  filename: string;
  mimetype: string;
}

export interface ScheduleServiceDeps {
  db: Db;
  clock: Clock;
  events: Publisher;
  tickets: TicketService;
  storage: MediaStorage;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentSchedule(row: repo.JoinedSchedule): Schedule {
  const s = row.schedule;
  return {
    id: s.id,
    ticketId: s.ticketId,
    contactId: s.contactId,
    whatsappId: s.whatsappId,
    userId: s.userId,
    body: s.body,
    mediaName: s.mediaName,
    mediaType: s.mediaType,
    sendAt: s.sendAt.toISOString(),
    status: row.status,
    messageId: s.messageId,
    error: row.error,
    sentAt: iso(s.sentAt),
    contact: row.contact,
    user: s.userId !== null && row.userName !== null ? { id: s.userId, name: row.userName } : null,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/**
 * Scheduled messages (issue 11 item 5). Who: anyone who may act on the ticket schedules in it (any
 * signed-in user from a contact). Everyone who may reach a ticket sees its schedules (the chat shows
 * them); a schedule not tied to a ticket is seen by its author. Editing and cancelling: the author,
 * or an admin (`schedules:manageAll`). Sending is the sweeper's and the outbox's (jobs/).
 */
export function createScheduleService(deps: ScheduleServiceDeps) {
  const { db, clock, events, tickets, storage } = deps;

  function checkSendAt(sendAt: string): Date {
    const at = new Date(sendAt);
    const now = clock.now().getTime();
    if (at.getTime() < now - SCHEDULE_PAST_SLACK_MS) throw fieldError("sendAt", "Must be in the future");
    if (at.getTime() > now + SCHEDULE_MAX_AHEAD_MS) throw fieldError("sendAt", "Must be within a year");
    return at;
  }

  async function visible(actor: AuthUser, row: repo.ScheduleRow): Promise<boolean> {
    if (isAdmin(actor)) return true;
    if (row.ticketId === null) return row.userId === actor.id;
    const ticket = await ticketsRepo.findTicket(db, row.ticketId);
    return !!ticket && canAccessTicket(actor, ticket);
  }

  /** A schedule the actor may see, else the same answer as a missing one. */
  async function reachable(actor: AuthUser, id: number): Promise<repo.ScheduleRow> {
    const row = await repo.findSchedule(db, id);
    if (!row || !(await visible(actor, row))) throw new AppError("ERR_NO_SCHEDULE_FOUND");
    return row;
  }

  /** A schedule the actor may change: its author or an admin, while it is still `scheduled`. */
  async function editable(actor: AuthUser, id: number): Promise<repo.ScheduleRow> {
    const row = await reachable(actor, id);
    if (row.userId !== actor.id && !can(actor, "schedules:manageAll")) throw new AppError("ERR_NO_PERMISSION");
    if (row.status !== "scheduled") throw new AppError("ERR_SCHEDULE_NOT_EDITABLE");
    return row;
  }

  async function present(id: number): Promise<Schedule> {
    const row = await repo.findJoinedSchedule(db, id);
    if (!row) throw new AppError("ERR_NO_SCHEDULE_FOUND");
    return presentSchedule(row);
  }

  /** Realtime: scoped like the ticket; without a ticket, its author and the admins. */
  async function announce(id: number, action: "create" | "update"): Promise<Schedule> {
    const schedule = await present(id);
    const ticket = schedule.ticketId === null ? undefined : await ticketsRepo.findTicket(db, schedule.ticketId);
    if (ticket) events.publishTicket("schedule", { action, schedule }, scopeOf(ticket));
    else events.publishToUser("schedule", { action, schedule }, schedule.userId);
    return schedule;
  }

  const store = (file: ScheduleFile | undefined): Promise<UploadedMedia | undefined> =>
    file ? storeBuffer(storage, file.data, file.filename, file.mimetype) : Promise.resolve(undefined);

  const mediaColumns = (media: UploadedMedia | undefined | null) => ({
    mediaPath: media?.path ?? null,
    mediaName: media?.name ?? null,
    mediaMime: media?.mime ?? null,
    mediaType: media?.mediaType ?? null,
  });

  /** Where the schedule goes: checked (access, contact, connection) before any file is stored. */
  async function target(actor: AuthUser, input: Pick<ScheduleCreateInput, "ticketId" | "contactId" | "whatsappId">) {
    if (input.ticketId !== undefined) {
      const ticket = await tickets.accessible(actor, input.ticketId);
      return { ticketId: ticket.id, contactId: ticket.contactId, whatsappId: input.whatsappId ?? ticket.whatsappId };
    }
    const contactId = input.contactId as number;
    if (!(await findContactById(db, contactId))) throw new AppError("ERR_NO_CONTACT_FOUND");
    const connection = input.whatsappId ? await findConnection(db, input.whatsappId) : await findDefaultConnection(db);
    if (!connection) throw new AppError(input.whatsappId ? "ERR_NO_WAPP_FOUND" : "ERR_NO_DEF_WAPP_FOUND");
    // The contact's active ticket on that connection is where it will go: scheduled in it when the
    // actor may act on it, refused (as "new ticket" would be) when it is someone else's.
    const active = await ticketsRepo.findActiveTicket(db, contactId, connection.id);
    if (active && !canAccessTicket(actor, active)) throw new AppError("ERR_OTHER_OPEN_TICKET");
    return { ticketId: active?.id ?? null, contactId, whatsappId: connection.id };
  }

  return {
    present,
    announce,

    /** Checks that need no file (access, body, time): the routes run them before reading an upload. */
    async check(actor: AuthUser, input: ScheduleCreateInput, hasFile: boolean) {
      checkSendAt(input.sendAt);
      if (!hasFile && !input.body.trim()) throw fieldError("body", "Required");
      return target(actor, input);
    },

    async create(actor: AuthUser, input: ScheduleCreateInput, file?: ScheduleFile): Promise<Schedule> {
      const sendAt = checkSendAt(input.sendAt);
      if (!file && !input.body.trim()) throw fieldError("body", "Required");
      const where = await target(actor, input);
      const media = await store(file);
      let row: repo.ScheduleRow;
      try {
        row = await repo.insertSchedule(db, { ...where, userId: actor.id, body: input.body, sendAt, ...mediaColumns(media) });
      } catch (error) {
        if (media) await removeStored(storage, [media.path]);
        throw error;
      }
      return announce(row.id, "create");
    },

    async list(actor: AuthUser, query: ScheduleListQuery) {
      const limit = SCHEDULE_PAGE_SIZE;
      const { rows, count } = await repo.listSchedules(
        db,
        {
          actor: isAdmin(actor) ? null : { id: actor.id, queueIds: actor.queueIds },
          status: query.status,
          userId: query.userId,
          ticketId: query.ticketId,
          contactId: query.contactId,
        },
        { limit, offset: (query.pageNumber - 1) * limit },
      );
      return { schedules: rows.map(presentSchedule), count, hasMore: count > query.pageNumber * limit };
    },

    async get(actor: AuthUser, id: number): Promise<Schedule> {
      await reachable(actor, id);
      return present(id);
    },

    async editable(actor: AuthUser, id: number) {
      await editable(actor, id);
    },

    /** Body, time or attachment, while still `scheduled` (else 409 ERR_SCHEDULE_NOT_EDITABLE). */
    async update(actor: AuthUser, id: number, input: ScheduleUpdateInput, file?: ScheduleFile): Promise<Schedule> {
      const current = await editable(actor, id);
      const sendAt = input.sendAt === undefined ? undefined : checkSendAt(input.sendAt);
      const body = input.body ?? current.body;
      const keepsMedia = !!current.mediaPath && !input.removeMedia;
      if (!file && !keepsMedia && !body.trim()) throw fieldError("body", "Required");
      const media = await store(file);
      const changes = {
        body,
        ...(sendAt ? { sendAt } : {}),
        ...(media || input.removeMedia ? mediaColumns(media) : {}),
      };
      const row = await repo.updatePending(db, id, changes).catch(async (error) => {
        if (media) await removeStored(storage, [media.path]);
        throw error;
      });
      if (!row) {
        // Sent or cancelled between the check and the write.
        if (media) await removeStored(storage, [media.path]);
        throw new AppError("ERR_SCHEDULE_NOT_EDITABLE");
      }
      if ((media || input.removeMedia) && current.mediaPath) await removeStored(storage, [current.mediaPath]);
      return announce(id, "update");
    },

    /** DELETE cancels: the row stays (status `cancelled`) for the history; its file is removed. */
    async cancel(actor: AuthUser, id: number): Promise<Schedule> {
      const current = await editable(actor, id);
      const row = await repo.updatePending(db, id, { status: "cancelled", ...mediaColumns(null) });
      if (!row) throw new AppError("ERR_SCHEDULE_NOT_EDITABLE");
      if (current.mediaPath) await removeStored(storage, [current.mediaPath]);
      return announce(id, "update");
    },

    /** The outbox sent or failed a message: when it came from a schedule, its new state is published. */
    async messageSettled(messageId: number): Promise<void> {
      const row = await repo.findScheduleByMessage(db, messageId);
      if (row) await announce(row.id, "update");
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
