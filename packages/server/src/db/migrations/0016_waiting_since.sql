-- Issue 13 "waiting since": when a ticket started waiting (entered pending), kept while it waits.
-- A customer writing again moves updated_at, never this: the Waiting list's timer and its
-- oldest-first order count from when the wait began.
ALTER TABLE "tickets" ADD COLUMN "waiting_since" timestamp with time zone;--> statement-breakpoint
-- Backfill: the wait's start was not recorded before; a waiting ticket's last update is the best there is.
UPDATE "tickets" SET "waiting_since" = "updated_at" WHERE "status" = 'pending';--> statement-breakpoint
CREATE INDEX "tickets_status_waiting_idx" ON "tickets" USING btree ("status","waiting_since","updated_at","id");--> statement-breakpoint
-- Stamped on every write path, in the writer's transaction (like the metrics' timestamps, migration 0015).
CREATE FUNCTION "tickets_waiting_since_stamp"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."status" <> 'pending' THEN
		NEW."waiting_since" := NULL;
	ELSIF TG_OP = 'INSERT' THEN
		NEW."waiting_since" := coalesce(NEW."waiting_since", NEW."updated_at", NEW."created_at", now());
	ELSIF OLD."status" IS DISTINCT FROM 'pending' THEN
		-- The writer's clock when it moved updated_at, else the transaction's.
		NEW."waiting_since" := CASE WHEN NEW."updated_at" IS DISTINCT FROM OLD."updated_at" THEN NEW."updated_at" ELSE now() END;
	ELSE
		NEW."waiting_since" := coalesce(OLD."waiting_since", NEW."updated_at");
	END IF;
	RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "tickets_waiting_since" BEFORE INSERT OR UPDATE ON "tickets"
	FOR EACH ROW EXECUTE FUNCTION "tickets_waiting_since_stamp"();
