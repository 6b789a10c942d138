import bcrypt from "bcryptjs";

/** The password of every generated staff member (stored as bcryptjs cost-8 hashes, as every flavour does). */
export const OLD_PASSWORD = "senha-antiga-123";
export const HASH = bcrypt.hashSync(OLD_PASSWORD, 8);

/** "YYYY-MM-DD HH:MM:SS" as a Whaticket MySQL database stores it (the -03:00 session's local time). */
export const local = (base: Date, minutes: number) => {
  const d = new Date(base.getTime() + minutes * 60_000 - 3 * 3600_000);
  return d.toISOString().replace("T", " ").replace("Z", "").slice(0, 19);
};
export const BASE = new Date("2024-03-10T12:00:00Z");
export const EMOJI = ["Olá 😀", "Obrigado 🙏🏽", "Ação çedilha", "👍", "Boa tarde! 🌞"];

export interface Expectations {
  contacts: number;
  twins: number;
  aliases: number;
  tickets: number;
  messages: number;
  missingMedia: number;
  presentMedia: number;
  /** A message whose stored local time is known, and the UTC instant it must be imported as. */
  knownTime: { sourceId: string; utc: string };
}
