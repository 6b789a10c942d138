ALTER TABLE "messages" ADD COLUMN "is_note" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE TABLE "note_mentions" (
	"id" serial PRIMARY KEY NOT NULL,
	"message_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "note_mentions" ADD CONSTRAINT "note_mentions_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_mentions" ADD CONSTRAINT "note_mentions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "note_mentions_message_user_key" ON "note_mentions" USING btree ("message_id","user_id");--> statement-breakpoint
CREATE INDEX "note_mentions_user_idx" ON "note_mentions" USING btree ("user_id","id" DESC NULLS LAST);
