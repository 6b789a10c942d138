-- Issue 23 §1: automation rules (see docs/automation-rules.md). A rule reacts to an event of a
-- ticket (its `trigger`), checks its conditions and runs the automation actions (the list macros run).
-- Events reach the rules through `rule_events`, a durable queue that the triggers below fill in the
-- very transaction that makes the change (whatever code path wrote the row): a rolled-back change
-- fires nothing, a committed one is never lost. With no enabled rule of a kind, a statement costs one
-- lookup in the (tiny) rules table. A worker claims events FOR UPDATE SKIP LOCKED and, in the same
-- transaction, runs the actions, writes one `rule_runs` row per rule (unique per rule and event)
-- and marks the event handled: applied once, whatever the number of processes or crashes. Handled
-- events are pruned after 8 days (they keep a no-reply period from firing twice meanwhile).
-- Loop guard: the worker sets `zapdesk.rule_depth` for its transaction; a change made by a rule's
-- actions is an event one level deeper, and none is queued beyond level 1.
CREATE TABLE "automation_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"trigger" text NOT NULL,
	"idle_minutes" integer,
	"conditions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"actions" jsonb NOT NULL,
	"max_per_hour" integer DEFAULT 3 NOT NULL,
	"run_as_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "rule_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"ticket_id" integer NOT NULL,
	"message_id" bigint,
	"tag_id" integer,
	"previous" jsonb,
	"idle_minutes" integer,
	"depth" integer DEFAULT 0 NOT NULL,
	"dedupe_key" text,
	"handled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "rule_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rule_id" integer NOT NULL,
	"event_id" bigint NOT NULL,
	"ticket_id" integer,
	"outcome" text NOT NULL,
	"event" jsonb NOT NULL,
	"failed_condition" integer,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error_code" text,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "automation_rules" ADD CONSTRAINT "automation_rules_run_as_id_users_id_fk" FOREIGN KEY ("run_as_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_events" ADD CONSTRAINT "rule_events_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD CONSTRAINT "rule_runs_rule_id_automation_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."automation_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD CONSTRAINT "rule_runs_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "automation_rules_name_key" ON "automation_rules" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "automation_rules_enabled_idx" ON "automation_rules" USING btree ("trigger") WHERE "enabled";--> statement-breakpoint
CREATE UNIQUE INDEX "rule_events_dedupe_key" ON "rule_events" USING btree ("dedupe_key") WHERE "dedupe_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "rule_events_ticket_idx" ON "rule_events" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "rule_events_due_idx" ON "rule_events" USING btree ("id") WHERE "handled_at" IS NULL;--> statement-breakpoint
CREATE INDEX "rule_events_handled_idx" ON "rule_events" USING btree ("handled_at") WHERE "handled_at" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "rule_runs_rule_event_key" ON "rule_runs" USING btree ("rule_id","event_id");--> statement-breakpoint
CREATE INDEX "rule_runs_rule_idx" ON "rule_runs" USING btree ("rule_id","id" DESC);--> statement-breakpoint
CREATE INDEX "rule_runs_rate_idx" ON "rule_runs" USING btree ("rule_id","ticket_id","created_at") WHERE "outcome" = 'done';--> statement-breakpoint
CREATE FUNCTION zapdesk_rule_depth() RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('zapdesk.rule_depth', true), ''), '0')::integer
$$;--> statement-breakpoint
CREATE FUNCTION zapdesk_rules_message_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM automation_rules WHERE enabled AND "trigger" IN ('messageReceived', 'messageSent')) THEN RETURN NULL; END IF;
  IF zapdesk_rule_depth() > 1 THEN RETURN NULL; END IF;
  INSERT INTO rule_events (kind, ticket_id, message_id, depth)
  SELECT k.kind, n.ticket_id, n.id, zapdesk_rule_depth()
  FROM new_rows n
  CROSS JOIN LATERAL (SELECT CASE WHEN n.from_me THEN 'messageSent' ELSE 'messageReceived' END AS kind) k
  WHERE NOT n.is_note AND EXISTS (SELECT 1 FROM automation_rules r WHERE r.enabled AND r."trigger" = k.kind)
  ORDER BY n.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "rules_message_created" AFTER INSERT ON "messages" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_rules_message_created();--> statement-breakpoint
CREATE FUNCTION zapdesk_rules_ticket_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM automation_rules WHERE enabled AND "trigger" = 'ticketCreated') THEN RETURN NULL; END IF;
  IF zapdesk_rule_depth() > 1 THEN RETURN NULL; END IF;
  INSERT INTO rule_events (kind, ticket_id, depth)
  SELECT 'ticketCreated', n.id, zapdesk_rule_depth() FROM new_rows n ORDER BY n.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "rules_ticket_created" AFTER INSERT ON "tickets" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_rules_ticket_created();--> statement-breakpoint
CREATE FUNCTION zapdesk_rules_ticket_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM automation_rules WHERE enabled AND "trigger" IN ('statusChanged', 'queueChanged', 'assigneeChanged')) THEN RETURN NULL; END IF;
  IF zapdesk_rule_depth() > 1 THEN RETURN NULL; END IF;
  INSERT INTO rule_events (kind, ticket_id, previous, depth)
  SELECT e.kind, n.id, jsonb_build_object('status', o.status, 'userId', o.user_id, 'queueId', o.queue_id), zapdesk_rule_depth()
  FROM new_rows n
  JOIN old_rows o ON o.id = n.id
  CROSS JOIN LATERAL (VALUES
    ('statusChanged', 1, n.status IS DISTINCT FROM o.status),
    ('queueChanged', 2, n.queue_id IS DISTINCT FROM o.queue_id),
    ('assigneeChanged', 3, n.user_id IS DISTINCT FROM o.user_id)) AS e(kind, rank, changed)
  WHERE e.changed AND EXISTS (SELECT 1 FROM automation_rules r WHERE r.enabled AND r."trigger" = e.kind)
  ORDER BY n.id, e.rank;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "rules_ticket_updated" AFTER UPDATE ON "tickets" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_rules_ticket_updated();--> statement-breakpoint
CREATE FUNCTION zapdesk_rules_tag_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM automation_rules WHERE enabled AND "trigger" = 'tagAdded') THEN RETURN NULL; END IF;
  IF zapdesk_rule_depth() > 1 THEN RETURN NULL; END IF;
  INSERT INTO rule_events (kind, ticket_id, tag_id, depth)
  SELECT 'tagAdded', n.ticket_id, n.tag_id, zapdesk_rule_depth() FROM new_rows n ORDER BY n.ticket_id, n.tag_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "rules_tag_added" AFTER INSERT ON "ticket_tags" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_rules_tag_added();
