-- Issue 22 §1: retention. A policy per queue and a default one (queue_id null); a queue's own row
-- replaces the default for its tickets, and a disabled row keeps them forever.
CREATE TABLE "retention_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"queue_id" integer,
	"enabled" boolean DEFAULT false NOT NULL,
	"days" integer NOT NULL,
	"remove" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retention_policies_days_check" CHECK ("days" BETWEEN 1 AND 3650),
	CONSTRAINT "retention_policies_remove_check" CHECK ("remove" IN ('media', 'messages'))
);
--> statement-breakpoint
ALTER TABLE "retention_policies" ADD CONSTRAINT "retention_policies_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "retention_policies_queue_key" ON "retention_policies" USING btree (coalesce("queue_id", 0));--> statement-breakpoint
-- A legal hold suspends every policy for a contact (all its tickets) or for one ticket.
CREATE TABLE "legal_holds" (
	"id" serial PRIMARY KEY NOT NULL,
	"contact_id" integer,
	"ticket_id" integer,
	"reason" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "legal_holds_one_target" CHECK (("contact_id" IS NULL) <> ("ticket_id" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "legal_holds_contact_key" ON "legal_holds" USING btree ("contact_id") WHERE "contact_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "legal_holds_ticket_key" ON "legal_holds" USING btree ("ticket_id") WHERE "ticket_id" IS NOT NULL;--> statement-breakpoint
-- Files whose rows are gone, queued in the same transaction and removed from the storage after
-- commit: a crash in between leaves the path here for the next sweep, never an orphan file.
CREATE TABLE "media_deletions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The running sweep's counts, kept with its batches: one audit entry per run, exact across a crash.
-- The row exists only while counts wait to be written to the audit trail.
CREATE TABLE "retention_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"tickets" integer DEFAULT 0 NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"files" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "retention_state_one_row" CHECK ("id" = 1)
);