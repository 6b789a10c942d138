-- Issue 20 §2.5: a CSAT rating belongs to the agent who resolved the conversation it rates, not to
-- whoever holds the ticket later (reopened, transferred). The ticket's agent is recorded when the
-- answer comes (the ticket is closed then: its agent is still the one it was resolved by).
ALTER TABLE "tickets" ADD COLUMN "rated_user_id" integer REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
-- Backfill: who resolved was not recorded before; the ticket's agent now is the best there is.
UPDATE "tickets" SET "rated_user_id" = "user_id" WHERE "rated_at" IS NOT NULL;
