import { PassThrough } from "node:stream";
import { backupListSchema, backupNameParamsSchema, backupScheduleSchema, backupSchema } from "@zapdesk/core";
import type { onRequestHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { backupFileName } from "../../backup/names.js";
import type { Db } from "../../db/client.js";
import { requirePermission } from "../../http/auth.js";
import { AppError } from "../../lib/app-error.js";
import { recordAudit } from "../audit/audit.js";
import type { BackupService } from "./backups.service.js";

export interface BackupRouteOptions {
  authenticate: onRequestHookHandler;
  backups: BackupService;
  /** Issue 22 §4: backups made, downloaded and scheduled go into the audit trail. */
  db: Db;
}

const download = (name: string) => ({
  "content-type": "application/octet-stream",
  "content-disposition": `attachment; filename="${name}"`,
  "cache-control": "no-store",
});

/** Backups: admins only (`backups:manage`), since one holds every conversation of the install. */
export const backupRoutes: FastifyPluginAsyncZod<BackupRouteOptions> = async (app, { authenticate, backups, db }) => {
  const tags = ["backups"];
  app.addHook("onRequest", authenticate);
  app.addHook("onRequest", requirePermission("backups:manage"));

  app.get(
    "/backups",
    {
      schema: {
        tags,
        description: "The backups in the backup folder, the daily schedule and its last run.",
        response: { 200: backupListSchema },
      },
    },
    () => backups.overview(),
  );

  app.put(
    "/backups/schedule",
    {
      schema: {
        tags,
        description: "Turn the daily backup on or off, its hour (server time) and how many are kept.",
        body: backupScheduleSchema,
        response: { 200: backupScheduleSchema },
      },
    },
    async (request) => {
      const schedule = await backups.setSchedule(request.body);
      await recordAudit(db, { action: "setting.changed", targetType: "backupSchedule", details: { to: request.body } });
      return schedule;
    },
  );

  app.post(
    "/backups",
    { schema: { tags, description: "Write a backup into the backup folder now.", response: { 201: backupSchema } } },
    async (_request, reply) => {
      const backup = await backups.create();
      await recordAudit(db, {
        action: "backup.created",
        targetType: "backup",
        targetId: backup.name,
        details: { size: backup.size },
      });
      return reply.status(201).send(backup);
    },
  );

  app.get(
    "/backups/download",
    { schema: { tags, description: "A fresh backup of the running install, streamed (nothing is kept on the server)." } },
    async (_request, reply) => {
      if (backups.busy) throw new AppError("ERR_BACKUP_RUNNING");
      const name = backupFileName();
      await recordAudit(db, { action: "backup.downloaded", targetType: "backup", targetId: name, details: { fresh: true } });
      const body = new PassThrough();
      // A failure half-way cuts the stream: the file then has no trailer, and a restore refuses it.
      backups.stream(body).catch((error) => {
        reply.log.error({ err: error }, "backup download failed");
        body.destroy(error as Error);
      });
      return reply.headers(download(name)).send(body);
    },
  );

  app.get(
    "/backups/:name",
    { schema: { tags, description: "Download a backup from the backup folder.", params: backupNameParamsSchema } },
    async (request, reply) => {
      const file = await backups.open(request.params.name);
      await recordAudit(db, { action: "backup.downloaded", targetType: "backup", targetId: request.params.name });
      return reply.headers({ ...download(request.params.name), "content-length": String(file.size) }).send(file.stream);
    },
  );
};
