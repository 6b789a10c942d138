import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Database } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";

export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get("/health", { schema: { tags: ["health"], response: { 200: z.object({ status: z.literal("ok") }) } } }, async () => {
    try {
      await database.ping();
    } catch {
      throw new AppError("ERR_SERVICE_UNAVAILABLE", { message: "Database unreachable" });
    }
    return { status: "ok" as const };
  });
};
