-- Issue 23 §4: bots that hand over (see docs/bots.md). A queue's bot (Typebot or a generic webhook),
-- the tickets it holds, and the customer messages waiting for it (done in the transaction that
-- stores the bot's answer: none lost, none answered twice).
CREATE TABLE "queue_bots" (
	"queue_id" integer PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"base_url" text,
	"public_id" text,
	"api_token" text,
	"webhook_url" text,
	"secret" text,
	"variables_in" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"variables_out" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"handover_words" text[] NOT NULL,
	"timeout_minutes" integer DEFAULT 30 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "bot_sessions" (
	"ticket_id" integer PRIMARY KEY NOT NULL,
	"queue_id" integer NOT NULL,
	"kind" text NOT NULL,
	"session_id" text,
	"typebot_id" text,
	"result_id" text,
	"choices" jsonb,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "bot_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_id" integer NOT NULL,
	"message_id" bigint NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "queue_bots" ADD CONSTRAINT "queue_bots_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_sessions" ADD CONSTRAINT "bot_sessions_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_sessions" ADD CONSTRAINT "bot_sessions_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_jobs" ADD CONSTRAINT "bot_jobs_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_jobs" ADD CONSTRAINT "bot_jobs_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_sessions_activity_idx" ON "bot_sessions" USING btree ("last_activity_at");--> statement-breakpoint
CREATE INDEX "bot_jobs_ticket_idx" ON "bot_jobs" USING btree ("ticket_id","id");
