import type { UserFacingSocketConfig } from "@whiskeysockets/baileys";
import type { ChannelContext } from "../channel.js";

/** Baileys' logger interface (pino-shaped); the package does not export it by name. */
export type BaileysLogger = NonNullable<UserFacingSocketConfig["logger"]>;

const LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

/** Baileys is chatty: it logs at warn at most, and never more verbosely than the app itself. */
export function baileysLogger(context: ChannelContext): BaileysLogger {
  const parent = LEVELS.indexOf(context.logger.level);
  const level = LEVELS[Math.max(parent, LEVELS.indexOf("warn"))] ?? "warn";
  return context.logger.child({ whatsappId: context.whatsappId, module: "baileys" }, { level }) as BaileysLogger;
}
