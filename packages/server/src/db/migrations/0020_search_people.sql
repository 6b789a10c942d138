-- Issue 20 §2.6: ticket search matches what people wrote, never an automatic message (queue menu,
-- greetings, farewell, satisfaction question, protocol and out-of-hours notices: from_bot). Such a
-- message has no search words, so the same GIN index and the same predicate skip it (and the index
-- shrinks). PostgreSQL before 17 cannot change a generated column's expression: dropped and added
-- again (its index goes with it and is made again).
DROP INDEX IF EXISTS "messages_search_idx";--> statement-breakpoint
ALTER TABLE "messages" DROP COLUMN "search";--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (CASE WHEN "from_bot" THEN NULL ELSE to_tsvector('simple'::regconfig, zapdesk_unaccent("body")) END) STORED;--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search");
