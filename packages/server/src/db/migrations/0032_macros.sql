-- Issue 23 §2: macros (see docs/macros.md). A named list of actions (the automation actions'
-- schema in packages/core/src/schemas/automation.ts) that an agent runs on a ticket in one click.
-- Personal (owner_id, shared false) or shared (no owner, shared true); a personal macro goes with
-- its owner.
CREATE TABLE "macros" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner_id" integer,
	"shared" boolean DEFAULT false NOT NULL,
	"actions" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "macros_owner_check" CHECK ("shared" = ("owner_id" IS NULL))
);--> statement-breakpoint
ALTER TABLE "macros" ADD CONSTRAINT "macros_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "macros_shared_name_key" ON "macros" USING btree (lower("name")) WHERE "owner_id" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "macros_owner_name_key" ON "macros" USING btree ("owner_id", lower("name")) WHERE "owner_id" IS NOT NULL;
