-- Issue 23 §1 (cost of rules): an event whose conditions a rule does not meet is not a firing, and it
-- is no longer one `rule_runs` row per rule and event (20 rules wrote 20 rows per inbound message).
-- The rule's log counts them instead, per rule, hour and the condition that stopped it, in the
-- transaction that handles the events (exactly once, like the firings). Ids and counts only.
CREATE TABLE "rule_skips" (
	"rule_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"failed_condition" integer NOT NULL,
	"count" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rule_skips_rule_id_hour_failed_condition_pk" PRIMARY KEY("rule_id","hour","failed_condition")
);--> statement-breakpoint
ALTER TABLE "rule_skips" ADD CONSTRAINT "rule_skips_rule_id_automation_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."automation_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rule_skips_hour_idx" ON "rule_skips" USING btree ("hour");
--> statement-breakpoint
-- The messages' trigger reads which of its two kinds have enabled rules once per statement (it asked
-- the rules table again for each row inserted) and the loop guard's depth once.
CREATE OR REPLACE FUNCTION zapdesk_rules_message_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  received boolean;
  sent boolean;
  depth integer;
BEGIN
  SELECT coalesce(bool_or("trigger" = 'messageReceived'), false), coalesce(bool_or("trigger" = 'messageSent'), false)
    INTO received, sent
    FROM automation_rules WHERE enabled AND "trigger" IN ('messageReceived', 'messageSent');
  IF NOT (received OR sent) THEN RETURN NULL; END IF;
  depth := zapdesk_rule_depth();
  IF depth > 1 THEN RETURN NULL; END IF;
  INSERT INTO rule_events (kind, ticket_id, message_id, depth)
  SELECT CASE WHEN n.from_me THEN 'messageSent' ELSE 'messageReceived' END, n.ticket_id, n.id, depth
  FROM new_rows n
  WHERE NOT n.is_note AND CASE WHEN n.from_me THEN sent ELSE received END
  ORDER BY n.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A rule sees the events after it was enabled only (another enabled rule of its trigger may have
-- queued some just before): `enabled_at` is set by the database when it is created or enabled.
-- Rules enabled before this migration keep every event still queued (their creation time).
ALTER TABLE "automation_rules" ADD COLUMN "enabled_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "automation_rules" SET "enabled_at" = "created_at";
