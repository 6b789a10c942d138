-- Issue 18 "one customer is one contact": a Cloud API customer's business-scoped user id (BSUID,
-- e.g. "BR.1502576394655843") and WhatsApp username. A customer who hides their phone number is
-- keyed by the BSUID alone (it is then their `number` too, as a LID is for QR customers) until a
-- payload carries both; one BSUID belongs to one contact.
ALTER TABLE "contacts" ADD COLUMN "bsuid" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "username" text;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_bsuid_key" ON "contacts" USING btree ("bsuid") WHERE "contacts"."bsuid" is not null;
