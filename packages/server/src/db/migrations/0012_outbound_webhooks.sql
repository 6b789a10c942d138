-- Outbound webhooks (issue 11 item 6). The triggers below enqueue one delivery per subscribed webhook
-- in the transaction that makes the change: nothing is missed whatever code path wrote the row, and a
-- rolled-back change sends nothing. With no enabled subscriber a statement costs one lookup in the
-- (tiny) webhooks table.
CREATE TABLE "webhooks" (
	"id" serial PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"secret" text NOT NULL,
	"secret_hint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"webhook_id" integer NOT NULL REFERENCES "webhooks"("id") ON DELETE cascade,
	"event" text NOT NULL,
	"entity_id" bigint NOT NULL,
	"previous" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"body" text,
	"next_attempt_at" timestamp with time zone,
	"first_attempt_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"response_status" integer,
	"latency_ms" integer,
	"response_snippet" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id","id" DESC);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("id") WHERE "status" = 'pending';--> statement-breakpoint
-- message.created: every stored message, inbound and outbound, except private notes (a column
-- `is_note` that another change may add; read through jsonb so this works with or without it).
CREATE FUNCTION zapdesk_webhooks_message_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE enabled AND 'message.created' = ANY(events)) THEN RETURN NULL; END IF;
  INSERT INTO webhook_deliveries (webhook_id, event, entity_id)
  SELECT w.id, 'message.created', n.id
  FROM new_rows n JOIN webhooks w ON w.enabled AND 'message.created' = ANY(w.events)
  WHERE coalesce((to_jsonb(n) ->> 'is_note')::boolean, false) = false
  ORDER BY n.id, w.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "webhooks_message_created" AFTER INSERT ON "messages" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_webhooks_message_created();--> statement-breakpoint
CREATE FUNCTION zapdesk_webhooks_contact_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE enabled AND 'contact.created' = ANY(events)) THEN RETURN NULL; END IF;
  INSERT INTO webhook_deliveries (webhook_id, event, entity_id)
  SELECT w.id, 'contact.created', n.id
  FROM new_rows n JOIN webhooks w ON w.enabled AND 'contact.created' = ANY(w.events)
  ORDER BY n.id, w.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "webhooks_contact_created" AFTER INSERT ON "contacts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_webhooks_contact_created();--> statement-breakpoint
CREATE FUNCTION zapdesk_webhooks_ticket_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE enabled AND 'ticket.created' = ANY(events)) THEN RETURN NULL; END IF;
  INSERT INTO webhook_deliveries (webhook_id, event, entity_id)
  SELECT w.id, 'ticket.created', n.id
  FROM new_rows n JOIN webhooks w ON w.enabled AND 'ticket.created' = ANY(w.events)
  ORDER BY n.id, w.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "webhooks_ticket_created" AFTER INSERT ON "tickets" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_webhooks_ticket_created();--> statement-breakpoint
-- ticket.updated: the status, the assignee or the queue changed; ticket.closed as well when the
-- status became closed. The values before the change travel with the event.
CREATE FUNCTION zapdesk_webhooks_ticket_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE enabled AND events && ARRAY['ticket.updated', 'ticket.closed']) THEN RETURN NULL; END IF;
  INSERT INTO webhook_deliveries (webhook_id, event, entity_id, previous)
  SELECT w.id, e.event, n.id, jsonb_build_object('status', o.status, 'userId', o.user_id, 'queueId', o.queue_id)
  FROM new_rows n
  JOIN old_rows o ON o.id = n.id
  CROSS JOIN LATERAL (VALUES ('ticket.updated', 1), ('ticket.closed', 2)) AS e(event, rank)
  JOIN webhooks w ON w.enabled AND e.event = ANY(w.events)
  WHERE (n.status, n.user_id, n.queue_id) IS DISTINCT FROM (o.status, o.user_id, o.queue_id)
    AND (e.event = 'ticket.updated' OR (n.status = 'closed' AND o.status <> 'closed'))
  ORDER BY n.id, e.rank, w.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "webhooks_ticket_updated" AFTER UPDATE ON "tickets" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_webhooks_ticket_updated();
