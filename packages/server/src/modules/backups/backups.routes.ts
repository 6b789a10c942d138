import { PassThrough } from "node:stream";
import { backupListSchema, backupNameParamsSchema, backupScheduleSchema, backupSchema } from "@zapdesk/core";
import type { onRequestHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { backupFileName } from "../../backup/names.js";
import { requirePermission } from "../../http/auth.js";
import { AppError } from "../../lib/app-error.js";
import type { BackupService } from "./backups.service.js";

export interface BackupRouteOptions {
  authenticate: onRequestHookHandler;
  backups: BackupService;
}

const download = (name: string) => ({
  "content-type": "application/octet-stream",
  "content-disposition": `attachment; filename="${name}"`,
  "cache-control": "no-store",
});

/** Backups: admins only (`backups:manage`), since one holds every conversation of the install. */
export const backupRoutes: FastifyPluginAsyncZod<BackupRouteOptions> = async (app, { authenticate, backups }) => {
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
    (request) => backups.setSchedule(request.body),
  );

  app.post(
    "/backups",
    { schema: { tags, description: "Write a backup into the backup folder now.", response: { 201: backupSchema } } },
    async (_request, reply) => reply.status(201).send(await backups.create()),
  );

  app.get(
    "/backups/download",
    { schema: { tags, description: "A fresh backup of the running install, streamed (nothing is kept on the server)." } },
    async (_request, reply) => {
      if (backups.busy) throw new AppError("ERR_BACKUP_RUNNING");
      const body = new PassThrough();
      // A failure half-way cuts the stream: the file then has no trailer, and a restore refuses it.
      backups.stream(body).catch((error) => {
        reply.log.error({ err: error }, "backup download failed");
        body.destroy(error as Error);
      });
      return reply.headers(download(backupFileName())).send(body);
    },
  );

  app.get(
    "/backups/:name",
    { schema: { tags, description: "Download a backup from the backup folder.", params: backupNameParamsSchema } },
    async (request, reply) => {
      const file = await backups.open(request.params.name);
      return reply.headers({ ...download(request.params.name), "content-length": String(file.size) }).send(file.stream);
    },
  );
};
