-- Issue 23 §5: a contact's owner (docs/contact-owner.md), the agent whose customer it is: set by hand,
-- by a rule, or by the first agent who resolves one of its tickets (the setting ownerOnResolve). The
-- owner gets the contact's new conversations first; a deleted user leaves their contacts unowned.
ALTER TABLE "contacts" ADD COLUMN "owner_user_id" integer REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX "contacts_owner_idx" ON "contacts" USING btree ("owner_user_id") WHERE "owner_user_id" is not null;
