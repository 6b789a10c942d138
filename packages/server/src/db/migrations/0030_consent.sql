-- Issue 22 §3: consent and opt-out (see docs/privacy.md). A consent message per connection or per
-- queue (exactly one of the two); the answers, the questions asked and the opt-outs/opt-ins of each
-- contact, with their time and WhatsApp message id. The install-wide opt-out words are the setting
-- "consentOptOutWords" (a JSON list; absent: SAIR, PARAR, STOP).
CREATE TABLE "consent_configs" (
	"id" serial PRIMARY KEY NOT NULL,
	"whatsapp_id" integer,
	"queue_id" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"message" text NOT NULL,
	"privacy_url" text DEFAULT '' NOT NULL,
	"accept_words" jsonb NOT NULL,
	"decline_words" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consent_configs_one_scope" CHECK (("whatsapp_id" IS NULL) <> ("queue_id" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "consent_configs" ADD CONSTRAINT "consent_configs_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_configs" ADD CONSTRAINT "consent_configs_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "consent_configs_whatsapp_key" ON "consent_configs" USING btree ("whatsapp_id") WHERE "whatsapp_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "consent_configs_queue_key" ON "consent_configs" USING btree ("queue_id") WHERE "queue_id" is not null;--> statement-breakpoint
CREATE TABLE "consent_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contact_id" integer NOT NULL,
	"kind" text NOT NULL,
	"whatsapp_id" integer,
	"queue_id" integer,
	"ticket_id" integer,
	"message_id" bigint,
	"message_wid" text,
	"text" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consent_records_kind_check" CHECK ("kind" IN ('asked', 'accepted', 'declined', 'opted_out', 'opted_in'))
);
--> statement-breakpoint
ALTER TABLE "consent_records" ADD CONSTRAINT "consent_records_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_records" ADD CONSTRAINT "consent_records_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_records" ADD CONSTRAINT "consent_records_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_records" ADD CONSTRAINT "consent_records_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_records" ADD CONSTRAINT "consent_records_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_records_contact_idx" ON "consent_records" USING btree ("contact_id","id");--> statement-breakpoint
CREATE INDEX "consent_records_message_idx" ON "consent_records" USING btree ("message_id") WHERE "message_id" is not null;
