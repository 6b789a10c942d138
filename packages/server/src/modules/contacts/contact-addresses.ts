import { type SQL, sql } from "drizzle-orm";
import { contacts } from "../../db/schema.js";

export { isAliasAddress, isBsuidAddress, isLidAddress, isPhoneAddress, twinOf } from "../../channels/chat-address.js";

/** `twinOf` in SQL, for a column holding numbers (null when it has no twin). */
function twinSql(column: SQL | typeof contacts.number): SQL<string | null> {
  return sql<string | null>`case
    when ${column} ~ '^55[1-9]{2}9[6-9][0-9]{7}$' then '55' || substr(${column}, 3, 2) || substr(${column}, 6)
    when ${column} ~ '^55[1-9]{2}[6-9][0-9]{7}$' then '55' || substr(${column}, 3, 2) || '9' || substr(${column}, 5)
  end`;
}

/**
 * A RETURNING column for a contact upsert (`insert … on conflict (number) do update`): the row was
 * created by this very statement (xmax = 0) while its ninth-digit twin is already a contact. The
 * common case (an existing contact, or a number with no twin) costs no extra statement: the
 * lookup runs inside the upsert, and only for a row it created.
 */
export const createdBesideTwin = sql<boolean>`case
  when xmax = 0 and ${contacts.number} like '55%' then exists (
    select 1 from ${contacts} as "twin" where "twin"."number" = ${twinSql(contacts.number)}
  )
  else false
end`;
