-- Issue 23 §1 (cost of rules): a customer's message that no enabled rule can fire on is not queued.
-- The inbound batch evaluates the rules' message-text conditions (they read only the message, which
-- the worker would read unchanged) and, when every enabled "a message arrives" rule has one that the
-- text fails for every received message of its insert, hands this trigger the rules' stamp in
-- `zapdesk.rules_quiet` within that same statement (inbound-batch-sql.ts). The trigger trusts it
-- only when the stamp is the rules' own as this statement reads them: each rule's id and row version
-- (xmin), so a rule created, edited, enabled, disabled or deleted since the batch read them (its
-- cache lasts a second) makes the trigger queue the messages as before. The setting is cleared
-- here, so no later statement of the transaction is affected. Sent messages are queued as before.
CREATE OR REPLACE FUNCTION zapdesk_rules_message_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  received boolean;
  sent boolean;
  stamp text;
  quiet text;
  depth integer;
BEGIN
  SELECT coalesce(bool_or("trigger" = 'messageReceived'), false), coalesce(bool_or("trigger" = 'messageSent'), false),
    coalesce(string_agg(CASE WHEN "trigger" = 'messageReceived' THEN id::text || '.' || xmin::text END, ',' ORDER BY id), '')
    INTO received, sent, stamp
    FROM automation_rules WHERE enabled AND "trigger" IN ('messageReceived', 'messageSent');
  quiet := coalesce(current_setting('zapdesk.rules_quiet', true), '');
  IF quiet <> '' THEN
    PERFORM set_config('zapdesk.rules_quiet', '', true);
    IF quiet = stamp THEN received := false; END IF;
  END IF;
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
