CREATE TABLE "inbound_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"kind" text NOT NULL,
	"event_key" text,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"locked_until" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lid_mappings" (
	"lid" text PRIMARY KEY NOT NULL,
	"pn" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"components" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "lid" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "error_title" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "reactions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "last_inbound_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "pairing_phone" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "pairing_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "send_min_gap_ms" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "send_jitter_ms" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_phone_number_id" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_business_account_id" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_access_token" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_app_secret" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_verify_token" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "last_event_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "reconnects_day" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "reconnects_today" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "last_error_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "inbound_events" ADD CONSTRAINT "inbound_events_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD CONSTRAINT "whatsapp_templates_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_events_key" ON "inbound_events" USING btree ("whatsapp_id","event_key");--> statement-breakpoint
CREATE INDEX "inbound_events_pending_idx" ON "inbound_events" USING btree ("whatsapp_id","id") WHERE "inbound_events"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "inbound_events_processed_idx" ON "inbound_events" USING btree ("processed_at") WHERE "inbound_events"."status" = 'done';--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_templates_key" ON "whatsapp_templates" USING btree ("whatsapp_id","name","language");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_lid_key" ON "contacts" USING btree ("lid") WHERE "contacts"."lid" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapps_cloud_phone_key" ON "whatsapps" USING btree ("cloud_phone_number_id") WHERE "whatsapps"."cloud_phone_number_id" is not null;--> statement-breakpoint
-- QR connections made before pacing existed get the defaults new ones get (about one send a second).
UPDATE "whatsapps" SET "send_min_gap_ms" = 1000, "send_jitter_ms" = 1000 WHERE "provider" = 'baileys';