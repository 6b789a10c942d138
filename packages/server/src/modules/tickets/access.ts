import { type Column, eq, inArray, isNull, or, type Placeholder, type SQL, sql } from "drizzle-orm";
import { type OpaqueType, opaque } from "../../db/prepared.js";
import { settings, tickets } from "../../db/schema.js";

/**
 * Who may see a ticket, as SQL: core's `canAccessTicket` (its assignee, its queue's members, anyone
 * for a ticket without queue, every admin), and core's `isChoosingQueue` for the tickets still at
 * the greeting menu. Every query that lists tickets for a user reads it from here; the socket rooms
 * are the same rule as rooms (`realtime/rooms.ts`), and `access.test.ts` checks the three agree.
 */

/**
 * How a query's values enter its SQL: as literals (built per call) or as placeholders (a prepared
 * statement per shape of filter).
 */
export interface Binder {
  value<T>(name: string, value: T): T | Placeholder | SQL;
  /** `column` (an int column) is one of `values` (an empty list matches nothing). */
  oneOf(column: Column, name: string, values: number[]): SQL;
}

export const literals: Binder = {
  value: (_name, value) => value,
  oneOf: (column, _name, values) => (values.length ? inArray(column, values) : sql`false`),
};

export const placeholders: Binder = {
  value: (name) => sql.placeholder(name),
  oneOf: (column, name) => sql`${column} = any(${sql.placeholder(name)}::int[])`,
};

/**
 * Placeholders behind scalar subqueries (db/prepared.ts `opaque`), for a statement whose plan must
 * not follow its values: the inbox's, whose generic plan PostgreSQL then keeps. `types` names each
 * value's type; a value without one is a mistake, found the first time the statement is built.
 */
export function opaquePlaceholders(types: Record<string, OpaqueType>): Binder {
  const typeOf = (name: string) => {
    const type = types[name];
    if (!type) throw new Error(`no type for the opaque placeholder "${name}"`);
    return type;
  };
  return {
    value: (name) => opaque(name, typeOf(name)),
    // The cast makes it an array expression: `any (subquery)` would compare with the subquery's rows.
    oneOf: (column, name) => sql`${column} = any(${opaque(name, "int[]")}::int[])`,
  };
}

export interface TicketReader {
  id: number;
  admin: boolean;
  queueIds: number[];
  /**
   * The tickets at the greeting menu are left out (agents, while `showChoosingQueue` is disabled).
   * "setting": as the setting says when the statement runs, read by the statement itself (an agent's
   * inbox and search, issue 24: one round trip less than reading the setting first).
   */
  hideChoosing?: boolean | "setting";
}

/** Not still at the greeting menu (core's `isChoosingQueue` as SQL). */
export const notChoosingQueue = sql`not (${tickets.queueId} is null and ${tickets.userId} is null and ${tickets.menuSentAt} is not null)`;

/** The tickets `reader` may reach (`canAccessTicket` as SQL); undefined for an admin (all of them). */
export function ticketAccessWhere(reader: Omit<TicketReader, "hideChoosing">, bind: Binder = literals): SQL | undefined {
  if (reader.admin) return undefined;
  return or(
    eq(tickets.userId, bind.value("actorId", reader.id)),
    isNull(tickets.queueId),
    bind.oneOf(tickets.queueId, "actorQueueIds", reader.queueIds),
  );
}

/**
 * Issue 24: a statement about one ticket (the `ticketId` placeholder) that may run before the service
 * has checked the ticket (it rides with the ticket's own read, db/prepared.ts `readTogether`): for a
 * reader who is not an admin, this gate makes it read nothing of a ticket out of the reader's reach.
 * An uncorrelated `exists`, checked once before anything else is read; the reader's id and queues
 * are placeholders (`gateValues`), so one statement serves every such reader.
 */
export const ticketReachableGate = sql`exists (select 1 from ${tickets} where ${tickets.id} = ${sql.placeholder("ticketId")}
  and ${ticketAccessWhere({ id: 0, admin: false, queueIds: [] }, placeholders)})`;

/** The gate's values for `reader` (none for an admin, whose statements have no gate). */
export const gateValues = (reader: Omit<TicketReader, "hideChoosing">) =>
  reader.admin ? {} : { actorId: reader.id, actorQueueIds: reader.queueIds };

/** Whether agents see the tickets at the greeting menu (`agentsSeeChoosingQueue` as SQL, checked once per statement). */
const choosingShown = sql`exists (select 1 from ${settings} where ${settings.key} = 'showChoosingQueue' and ${settings.value} = 'enabled')`;

/** The tickets `reader` sees in a list: those it may reach, less the greeting menu's when hidden from it. */
export function ticketVisibleWhere(reader: TicketReader, bind: Binder = literals): SQL | undefined {
  const access = ticketAccessWhere(reader, bind);
  if (reader.admin || !reader.hideChoosing) return access;
  if (reader.hideChoosing === "setting") return sql`(${access}) and (${notChoosingQueue} or ${choosingShown})`;
  return sql`(${access}) and ${notChoosingQueue}`;
}
