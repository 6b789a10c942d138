-- Issue 22 §5: a sign-in is a session a user sees and ends. Access tokens carry its id, and every
-- request checks the session still exists, so logout and "end session" apply at once (not after
-- the access token's 15 minutes). Refresh tokens rotate within a session; ending it removes them.
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "session_id" uuid;--> statement-breakpoint
-- Each live refresh token becomes a session of its own (its holder refreshes into it); rotated
-- rows kept only for reuse detection are dropped.
WITH "live" AS MATERIALIZED (
	SELECT "id", "user_id", "created_at", gen_random_uuid() AS "sid" FROM "refresh_tokens" WHERE "revoked_at" IS NULL
), "made" AS (
	INSERT INTO "sessions" ("id", "user_id", "created_at", "last_seen_at")
	SELECT "sid", "user_id", "created_at", "created_at" FROM "live"
)
UPDATE "refresh_tokens" SET "session_id" = "live"."sid" FROM "live" WHERE "refresh_tokens"."id" = "live"."id";--> statement-breakpoint
DELETE FROM "refresh_tokens" WHERE "session_id" IS NULL;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ALTER COLUMN "session_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refresh_tokens_session_idx" ON "refresh_tokens" USING btree ("session_id");
