import { q, type Run } from "./context.js";
import { str } from "./convert.js";

/**
 * Issue 23 §5: the "carteira" (wallet) of the Whaticket SaaS line (Multiflow `ContactWallets`:
 * contactId, walletId → Users, queueId) becomes the contact's owner here. One owner per contact:
 * the first wallet row (by id) wins and another agent's row for the same contact is skipped with a
 * reason; a wallet whose contact or user was not imported is skipped. The wallet's queue has no
 * counterpart (the owner is first for any queue they are a member of). A contact given an owner
 * here since keeps it (a second run counts the row as already imported).
 */
export async function importContactOwners(run: Run) {
  if (!run.has("ContactWallets", "walletId") || !run.has("ContactWallets", "contactId")) return;
  const keys = run.has("ContactWallets", "id") ? ["id"] : ["contactId", "walletId"];
  await run.scan(
    "contactOwners",
    "ContactWallets",
    `${run.keySelect("ContactWallets", keys)}, "contactId", "walletId"`,
    keys,
    run.byCompany("ContactWallets"),
    (rows) =>
      run.inBatch(async (tx) => {
        const contactOf = await run.mapped(
          tx,
          "contact",
          rows.map((r) => str(r.contactId)),
        );
        const userOf = await run.mapped(
          tx,
          "user",
          rows.map((r) => str(r.walletId)),
        );
        for (const row of rows) {
          const sid = `${str(row.contactId)}/${str(row.walletId)}`;
          const contact = contactOf.get(str(row.contactId));
          const user = userOf.get(str(row.walletId));
          if (contact === undefined) {
            run.skip("contactOwners", sid, "its contact was not imported");
            continue;
          }
          if (user === undefined) {
            run.skip("contactOwners", sid, "its agent (walletId) was not imported");
            continue;
          }
          const [after] = await q<{ owner: number | null; set: boolean }>(
            tx,
            `with claimed as (update contacts set owner_user_id = $1 where id = $2 and owner_user_id is null returning id)
             select (select owner_user_id from contacts where id = $2) as owner, exists (select 1 from claimed) as set`,
            [user, contact],
          );
          if (after?.set) run.counts("contactOwners").imported++;
          else if (after?.owner === user) run.counts("contactOwners").already++;
          else run.skip("contactOwners", sid, "the contact has another owner already (one owner per contact)");
        }
      }),
  );
}
