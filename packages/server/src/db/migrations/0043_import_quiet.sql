-- Issues 21 and 23: an import writes years of history, and history is not an event. The rows an import
-- writes (the importer sets `zapdesk.importing` in each of its transactions, import/context.ts) queue
-- no automation rule event and no outbound webhook delivery. Before, an enabled rule fired on every
-- imported message and ticket (an auto-reply rule wrote to customers about old conversations), and
-- every webhook received each historical message, contact and ticket.
CREATE FUNCTION zapdesk_importing() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('zapdesk.importing', true), '') = 'on'
$$;--> statement-breakpoint
-- Every rules trigger stops when the loop guard's depth is over 1 (0035, 0042): an import's writes
-- count as that deep.
CREATE OR REPLACE FUNCTION zapdesk_rule_depth() RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN zapdesk_importing() THEN 2
    ELSE coalesce(nullif(current_setting('zapdesk.rule_depth', true), ''), '0')::integer END
$$;--> statement-breakpoint
-- The webhooks' triggers (0012), each unchanged but for its first line.
CREATE OR REPLACE FUNCTION zapdesk_webhooks_message_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF zapdesk_importing() THEN RETURN NULL; END IF;
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE enabled AND 'message.created' = ANY(events)) THEN RETURN NULL; END IF;
  INSERT INTO webhook_deliveries (webhook_id, event, entity_id)
  SELECT w.id, 'message.created', n.id
  FROM new_rows n JOIN webhooks w ON w.enabled AND 'message.created' = ANY(w.events)
  WHERE coalesce((to_jsonb(n) ->> 'is_note')::boolean, false) = false
  ORDER BY n.id, w.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION zapdesk_webhooks_contact_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF zapdesk_importing() THEN RETURN NULL; END IF;
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE enabled AND 'contact.created' = ANY(events)) THEN RETURN NULL; END IF;
  INSERT INTO webhook_deliveries (webhook_id, event, entity_id)
  SELECT w.id, 'contact.created', n.id
  FROM new_rows n JOIN webhooks w ON w.enabled AND 'contact.created' = ANY(w.events)
  ORDER BY n.id, w.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION zapdesk_webhooks_ticket_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF zapdesk_importing() THEN RETURN NULL; END IF;
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE enabled AND 'ticket.created' = ANY(events)) THEN RETURN NULL; END IF;
  INSERT INTO webhook_deliveries (webhook_id, event, entity_id)
  SELECT w.id, 'ticket.created', n.id
  FROM new_rows n JOIN webhooks w ON w.enabled AND 'ticket.created' = ANY(w.events)
  ORDER BY n.id, w.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION zapdesk_webhooks_ticket_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF zapdesk_importing() THEN RETURN NULL; END IF;
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
END $$;
--> statement-breakpoint
-- Imports before this one left their closed tickets without their last close (closing_at and its
-- agent, 0026), so the tickets export and the closing report left them out: set as 0026 set the
-- native ones.
UPDATE "tickets" SET "closing_at" = "closed_at", "closing_user_id" = "user_id"
WHERE "status" = 'closed' AND "closed_at" IS NOT NULL AND "closing_at" IS NULL
  AND "id" IN (SELECT "target_id" FROM "import_map" WHERE "entity" = 'ticket');
