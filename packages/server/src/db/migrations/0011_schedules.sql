-- Scheduled messages (issue 11 item 5): sent through the outbox at send_at by the schedule sweeper.
CREATE TABLE "scheduled_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_id" integer REFERENCES "tickets"("id") ON DELETE set null,
	"contact_id" integer NOT NULL REFERENCES "contacts"("id") ON DELETE cascade,
	"whatsapp_id" integer REFERENCES "whatsapps"("id") ON DELETE set null,
	"user_id" integer REFERENCES "users"("id") ON DELETE set null,
	"body" text DEFAULT '' NOT NULL,
	"media_path" text,
	"media_name" text,
	"media_mime" text,
	"media_type" text,
	"send_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"message_id" bigint REFERENCES "messages"("id") ON DELETE set null,
	"error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "scheduled_messages_due_idx" ON "scheduled_messages" USING btree ("send_at") WHERE "scheduled_messages"."status" = 'scheduled';--> statement-breakpoint
CREATE INDEX "scheduled_messages_ticket_idx" ON "scheduled_messages" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "scheduled_messages_message_idx" ON "scheduled_messages" USING btree ("message_id");
