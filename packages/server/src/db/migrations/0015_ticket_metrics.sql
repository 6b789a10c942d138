ALTER TABLE "tickets" ADD COLUMN "first_response_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
-- Backfill: the first agent reply (not automatic, not a private note) of every ticket, through messages' (ticket, created) index.
UPDATE "tickets" t SET "first_response_at" = f."at"
FROM (
	SELECT "ticket_id", min("created_at") AS "at" FROM "messages"
	WHERE "from_me" AND NOT "from_bot" AND NOT "is_note"
	GROUP BY "ticket_id"
) f
WHERE f."ticket_id" = t."id";--> statement-breakpoint
-- A closed ticket's last update is its closing (what the dashboard's "closed by month" chart already assumes).
UPDATE "tickets" SET "closed_at" = "updated_at" WHERE "status" = 'closed';--> statement-breakpoint
-- Acceptance was not recorded before: an open ticket with an agent and no reply yet counts as accepted at its last update.
UPDATE "tickets" SET "accepted_at" = "updated_at" WHERE "status" = 'open' AND "user_id" IS NOT NULL AND "first_response_at" IS NULL;--> statement-breakpoint
CREATE INDEX "tickets_metrics_idx" ON "tickets" USING btree ("created_at","is_group","queue_id","user_id","first_response_at","accepted_at","closed_at");--> statement-breakpoint
-- Maintained on every write path, in the writer's transaction: acceptance (first move to open) and closing.
CREATE FUNCTION "tickets_metrics_stamp"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"at" timestamptz;
BEGIN
	IF TG_OP = 'INSERT' THEN
		"at" := coalesce(NEW."updated_at", NEW."created_at", now());
		IF NEW."status" = 'open' AND NEW."accepted_at" IS NULL THEN NEW."accepted_at" := "at"; END IF;
		IF NEW."status" = 'closed' AND NEW."closed_at" IS NULL THEN NEW."closed_at" := "at"; END IF;
		RETURN NEW;
	END IF;
	IF NEW."status" IS NOT DISTINCT FROM OLD."status" THEN RETURN NEW; END IF;
	-- The writer's clock when it moved updated_at, else the transaction's.
	"at" := CASE WHEN NEW."updated_at" IS DISTINCT FROM OLD."updated_at" THEN NEW."updated_at" ELSE now() END;
	IF NEW."status" = 'open' AND NEW."accepted_at" IS NULL THEN NEW."accepted_at" := "at"; END IF;
	IF NEW."status" = 'closed' THEN NEW."closed_at" := "at"; ELSE NEW."closed_at" := NULL; END IF;
	RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "tickets_metrics_stamp_insert" BEFORE INSERT ON "tickets" FOR EACH ROW EXECUTE FUNCTION "tickets_metrics_stamp"();--> statement-breakpoint
CREATE TRIGGER "tickets_metrics_stamp_update" BEFORE UPDATE OF "status" ON "tickets" FOR EACH ROW EXECUTE FUNCTION "tickets_metrics_stamp"();--> statement-breakpoint
-- The first agent reply, once per statement (a batch of messages costs one update of its tickets).
CREATE FUNCTION "tickets_first_response"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "tickets" t SET "first_response_at" = f."at"
	FROM (
		SELECT "ticket_id", min("created_at") AS "at" FROM "inserted"
		WHERE "from_me" AND NOT "from_bot" AND NOT "is_note"
		GROUP BY "ticket_id"
	) f
	WHERE f."ticket_id" = t."id" AND (t."first_response_at" IS NULL OR t."first_response_at" > f."at");
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "tickets_first_response" AFTER INSERT ON "messages" REFERENCING NEW TABLE AS "inserted" FOR EACH STATEMENT EXECUTE FUNCTION "tickets_first_response"();
