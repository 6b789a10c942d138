import {
  type Actor,
  type Connection,
  type ConnectionStatus,
  can,
  type connectionInputSchema,
  type connectionUpdateSchema,
} from "@zapdesk/core";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { AppError, fieldError } from "../../lib/app-error.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { Publisher } from "../../realtime/publisher.js";
import { existingQueueIds } from "../queues/queues.repo.js";
import * as repo from "./connections.repo.js";

/** What the connection service needs from the session manager (the owner of live sessions). */
export interface SessionControl {
  start(id: number): Promise<void>;
  requestNewQr(id: number): Promise<void>;
  disconnect(id: number): Promise<void>;
  remove(id: number): Promise<void>;
  isConnected(id: number): boolean;
}

export interface ConnectionState {
  status?: ConnectionStatus;
  qrcode?: string;
  retries?: number;
}

/** The full connection; `presentForActor` blanks the QR payload for anyone but an admin. */
export function presentConnection(row: repo.ConnectionWithQueues): Connection {
  return {
    id: row.id,
    name: row.name,
    provider: row.provider as Connection["provider"],
    status: row.status as ConnectionStatus,
    qrcode: row.qrcode,
    retries: row.retries,
    isDefault: row.isDefault,
    greetingMessage: row.greetingMessage,
    farewellMessage: row.farewellMessage,
    updatedAt: row.updatedAt.toISOString(),
    queues: row.queues.map(({ id, name, color }) => ({ id, name, color })),
  };
}

function presentForActor(actor: Actor, row: repo.ConnectionWithQueues): Connection {
  const connection = presentConnection(row);
  return can(actor, "connections:viewQrcode") ? connection : { ...connection, qrcode: "" };
}

const duplicateName = () => fieldError("name", "A connection with this name already exists");

export function createConnectionService(deps: { db: Db; events: Publisher; sessions: () => SessionControl }) {
  const { db, events } = deps;

  function assertManager(actor: Actor) {
    if (!can(actor, "connections:manage")) throw new AppError("ERR_NO_PERMISSION");
  }

  async function load(id: number): Promise<repo.ConnectionWithQueues> {
    const row = await repo.findConnection(db, id);
    if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
    return row;
  }

  async function validate(values: { name?: string; queueIds?: number[]; greetingMessage?: string }, exceptId?: number) {
    if (values.name) {
      const clash = await repo.findConnectionByName(db, values.name);
      if (clash && clash.id !== exceptId) throw duplicateName();
    }
    if (values.queueIds) {
      if ((await existingQueueIds(db, values.queueIds)).length !== values.queueIds.length) {
        throw fieldError("queueIds", "Unknown queue");
      }
      // With two or more queues the customer gets a menu, which needs a greeting to introduce it.
      if (values.queueIds.length > 1 && !values.greetingMessage?.trim()) throw new AppError("ERR_WAPP_GREETING_REQUIRED");
    }
  }

  function publish(row: repo.ConnectionWithQueues) {
    events.publish("whatsapp", { action: "update", whatsapp: presentConnection(row) });
  }

  return {
    async list(actor: Actor): Promise<Connection[]> {
      return (await repo.listConnections(db)).map((row) => presentForActor(actor, row));
    },

    async get(actor: Actor, id: number): Promise<Connection> {
      return presentForActor(actor, await load(id));
    },

    async create(actor: Actor, input: z.output<typeof connectionInputSchema>): Promise<Connection> {
      assertManager(actor);
      await validate(input);
      const id = await db
        .transaction(async (tx) => {
          // The first connection is the default whatever was asked: there must always be one.
          const isDefault = input.isDefault || (await repo.countConnections(tx)) === 0;
          const row = await repo.insertConnection(tx, {
            name: input.name,
            provider: input.provider,
            greetingMessage: input.greetingMessage,
            farewellMessage: input.farewellMessage,
            isDefault: false,
          });
          if (isDefault) {
            await repo.clearOtherDefaults(tx, row.id);
            await repo.updateConnection(tx, row.id, { isDefault: true });
          }
          await repo.setConnectionQueues(tx, row.id, input.queueIds);
          return row.id;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw duplicateName();
          throw error;
        });
      const row = await load(id);
      publish(row);
      await deps.sessions().start(id);
      return presentConnection(await load(id));
    },

    async update(actor: Actor, id: number, input: z.output<typeof connectionUpdateSchema>): Promise<Connection> {
      assertManager(actor);
      const current = await load(id);
      const queueIds = input.queueIds ?? current.queues.map((q) => q.id);
      const greetingMessage = input.greetingMessage ?? current.greetingMessage;
      await validate({ name: input.name, queueIds, greetingMessage }, id);
      if (input.isDefault === false && current.isDefault) throw new AppError("ERR_NO_OTHER_WHATSAPP");
      await db
        .transaction(async (tx) => {
          if (input.isDefault) await repo.clearOtherDefaults(tx, id);
          await repo.updateConnection(tx, id, {
            name: input.name,
            greetingMessage: input.greetingMessage,
            farewellMessage: input.farewellMessage,
            isDefault: input.isDefault,
          });
          if (input.queueIds) await repo.setConnectionQueues(tx, id, input.queueIds);
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw duplicateName();
          throw error;
        });
      const row = await load(id);
      publish(row);
      return presentConnection(row);
    },

    async remove(actor: Actor, id: number): Promise<void> {
      assertManager(actor);
      const current = await load(id);
      await deps.sessions().remove(id);
      await db.transaction(async (tx) => {
        await repo.deleteConnection(tx, id);
        if (current.isDefault) {
          const next = await repo.oldestConnection(tx);
          if (next) await repo.updateConnection(tx, next.id, { isDefault: true });
        }
      });
      events.publish("whatsapp", { action: "delete", whatsappId: id });
    },

    /** POST /whatsappsession/:id — try again. */
    async startSession(actor: Actor, id: number): Promise<void> {
      assertManager(actor);
      await load(id);
      await deps.sessions().start(id);
    },

    /** PUT /whatsappsession/:id — forget the pairing and show a new QR code. */
    async newQrCode(actor: Actor, id: number): Promise<void> {
      assertManager(actor);
      await load(id);
      await deps.sessions().requestNewQr(id);
    },

    /** DELETE /whatsappsession/:id — log the phone out. */
    async disconnect(actor: Actor, id: number): Promise<void> {
      assertManager(actor);
      await load(id);
      await deps.sessions().disconnect(id);
    },

    /** Called by the session manager: persist the new state, then tell the clients. */
    async applyState(id: number, state: ConnectionState): Promise<void> {
      const values: ConnectionState = { ...state };
      // A connected or disconnected session has no QR code to show any more.
      if (state.status && state.status !== "qrcode" && state.qrcode === undefined) values.qrcode = "";
      const updated = await repo.updateConnection(db, id, values);
      if (!updated) return;
      const row = await load(id);
      events.publish("whatsappSession", { action: "update", session: presentConnection(row) });
    },

    /** GET /whatsappzdg: the id of the connected default connection. */
    async defaultConnectedId(): Promise<number> {
      const row = await repo.findDefaultConnection(db);
      if (!row) throw new AppError("ERR_NO_DEF_WAPP_FOUND");
      if (row.status !== "CONNECTED" || !deps.sessions().isConnected(row.id)) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      return row.id;
    },

    async listAll(): Promise<repo.ConnectionWithQueues[]> {
      return repo.listConnections(db);
    },
  };
}

export type ConnectionService = ReturnType<typeof createConnectionService>;
