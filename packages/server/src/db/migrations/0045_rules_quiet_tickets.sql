-- Issue 23 §1 (cost of rules): the inbound batch also decides the rules' ticket conditions (status,
-- queue, assignee, connection, the connection's kind) on the ticket as the message's transaction
-- leaves it, when no enabled rule has an action that moves a ticket (rule-quiet.ts). That reading
-- rests on every enabled rule, not only those on "a message arrives": such a decision hands this
-- trigger `every:` and the stamp of every enabled rule (id and row version, in id order), which it
-- trusts only when it is the stamp of the rules as this statement reads them. A decision on text
-- alone hands the stamp of the "a message arrives" rules, as in 0044. Otherwise unchanged.
CREATE OR REPLACE FUNCTION zapdesk_rules_message_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  received boolean;
  sent boolean;
  stamp text;
  every_stamp text;
  quiet text;
  depth integer;
BEGIN
  SELECT coalesce(bool_or("trigger" = 'messageReceived'), false), coalesce(bool_or("trigger" = 'messageSent'), false),
    coalesce(string_agg(CASE WHEN "trigger" = 'messageReceived' THEN id::text || '.' || xmin::text END, ',' ORDER BY id), ''),
    coalesce(string_agg(id::text || '.' || xmin::text, ',' ORDER BY id), '')
    INTO received, sent, stamp, every_stamp
    FROM automation_rules WHERE enabled;
  quiet := coalesce(current_setting('zapdesk.rules_quiet', true), '');
  IF quiet <> '' THEN
    PERFORM set_config('zapdesk.rules_quiet', '', true);
    IF quiet = stamp OR quiet = 'every:' || every_stamp THEN received := false; END IF;
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
