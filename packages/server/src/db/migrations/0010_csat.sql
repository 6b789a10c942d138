ALTER TABLE "whatsapps" ADD COLUMN "rating_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "rating_timeout_minutes" integer DEFAULT 1440 NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "rating" integer;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "rated_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "tickets_rated_at_idx" ON "tickets" USING btree ("rated_at") WHERE "tickets"."rated_at" is not null;--> statement-breakpoint
CREATE TABLE "ticket_ratings" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"question_message_id" bigint,
	"requested_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"rating" integer,
	"rated_at" timestamp with time zone,
	"answer_message_id" bigint,
	CONSTRAINT "ticket_ratings_rating_range" CHECK ("rating" IS NULL OR "rating" BETWEEN 1 AND 5)
);
--> statement-breakpoint
ALTER TABLE "ticket_ratings" ADD CONSTRAINT "ticket_ratings_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_ratings" ADD CONSTRAINT "ticket_ratings_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_ratings" ADD CONSTRAINT "ticket_ratings_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_ratings_one_pending" ON "ticket_ratings" USING btree ("contact_id","whatsapp_id") WHERE "ticket_ratings"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "ticket_ratings_pending_expiry_idx" ON "ticket_ratings" USING btree ("expires_at") WHERE "ticket_ratings"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "ticket_ratings_ticket_idx" ON "ticket_ratings" USING btree ("ticket_id");
