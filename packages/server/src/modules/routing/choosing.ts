import type { Db } from "../../db/client.js";
import { getSettingValue } from "../settings/settings.repo.js";

/** Issue 13: whether agents see the tickets still at the greeting menu (admins always do). */
export async function agentsSeeChoosingQueue(db: Db): Promise<boolean> {
  return (await getSettingValue(db, "showChoosingQueue")) === "enabled";
}
