-- Issue 23 §5: a contact's owner (docs/contact-owner.md), the agent whose customer it is: set by hand,
-- by a rule, or by the first agent who resolves one of its tickets (the setting ownerOnResolve). The
-- owner gets the contact's new conversations first; a deleted user leaves their contacts unowned.
ALTER TABLE "contacts" ADD COLUMN "owner_user_id" integer;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contacts_owner_idx" ON "contacts" USING btree ("owner_user_id") WHERE "owner_user_id" is not null;
