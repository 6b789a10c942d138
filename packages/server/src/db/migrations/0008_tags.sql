-- Issue 11: tags on tickets and contacts (see docs/tags.md).
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "tags_name_key" ON "tags" USING btree (lower("name"));
--> statement-breakpoint
CREATE TABLE "ticket_tags" (
	"ticket_id" integer NOT NULL REFERENCES "tickets"("id") ON DELETE cascade,
	"tag_id" integer NOT NULL REFERENCES "tags"("id") ON DELETE cascade,
	CONSTRAINT "ticket_tags_ticket_id_tag_id_pk" PRIMARY KEY("ticket_id","tag_id")
);
--> statement-breakpoint
CREATE INDEX "ticket_tags_tag_idx" ON "ticket_tags" USING btree ("tag_id","ticket_id");
--> statement-breakpoint
CREATE TABLE "contact_tags" (
	"contact_id" integer NOT NULL REFERENCES "contacts"("id") ON DELETE cascade,
	"tag_id" integer NOT NULL REFERENCES "tags"("id") ON DELETE cascade,
	CONSTRAINT "contact_tags_contact_id_tag_id_pk" PRIMARY KEY("contact_id","tag_id")
);
--> statement-breakpoint
CREATE INDEX "contact_tags_tag_idx" ON "contact_tags" USING btree ("tag_id","contact_id");
