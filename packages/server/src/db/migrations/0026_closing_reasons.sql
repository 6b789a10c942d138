-- Issue 23 §6: closing reasons (see docs/closing-reasons.md). A configurable list; each queue asks
-- for one at Resolve and Protocolo never, optionally or always; the ticket keeps the reason of its
-- last close (with when and by whom: closed_at is cleared by a reopen, these are not).
CREATE TABLE "closing_reasons" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"asks_value" boolean DEFAULT false NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "closing_reasons_name_key" ON "closing_reasons" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "closing_reason" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_closing_reason_check" CHECK ("closing_reason" in ('off', 'optional', 'required'));--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "closing_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "closing_user_id" integer REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
-- No ON DELETE: a reason on a ticket cannot be deleted (the service answers ERR_CLOSING_REASON_IN_USE first).
ALTER TABLE "tickets" ADD COLUMN "closing_reason_id" integer REFERENCES "closing_reasons"("id");--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "closing_value" numeric(14, 2);--> statement-breakpoint
-- Backfill: the tickets closed now were last closed when closed_at says, by their agent.
UPDATE "tickets" SET "closing_at" = "closed_at", "closing_user_id" = "user_id" WHERE "status" = 'closed' AND "closed_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "tickets_closing_at_idx" ON "tickets" USING btree ("closing_at") WHERE "closing_at" is not null;--> statement-breakpoint
CREATE INDEX "tickets_closing_reason_idx" ON "tickets" USING btree ("closing_reason_id") WHERE "closing_reason_id" is not null;
