-- Issue 24 item 5: each process keeps the signed-in users it has looked up (users_auth_session) and
-- forgets one as soon as anything its lookup reads changes. The database says so itself, whatever
-- wrote: a NOTIFY on zapdesk_auth_user with the user's id (delivered at commit, to every process
-- listening on this database; identical ones in a transaction are sent once), '*' for a TRUNCATE.
-- Cascades (a deleted user's sessions and queues, a deleted queue's members) fire these row triggers.
CREATE FUNCTION zapdesk_auth_user_of_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN PERFORM pg_notify('zapdesk_auth_user', '*'); RETURN NULL; END IF;
  PERFORM pg_notify('zapdesk_auth_user', OLD.id::text);
  IF TG_OP = 'UPDATE' AND NEW.id IS DISTINCT FROM OLD.id THEN PERFORM pg_notify('zapdesk_auth_user', NEW.id::text); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION zapdesk_auth_user_of_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN PERFORM pg_notify('zapdesk_auth_user', '*'); RETURN NULL; END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM pg_notify('zapdesk_auth_user', OLD.user_id::text); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM pg_notify('zapdesk_auth_user', NEW.user_id::text); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "auth_user_users" AFTER UPDATE OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION zapdesk_auth_user_of_user();--> statement-breakpoint
CREATE TRIGGER "auth_user_users_truncate" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_auth_user_of_user();--> statement-breakpoint
-- A session's "last seen" (written once a minute per session and process) changes nothing the lookup reads.
CREATE TRIGGER "auth_user_sessions_update" AFTER UPDATE ON "sessions"
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION zapdesk_auth_user_of_row();--> statement-breakpoint
CREATE TRIGGER "auth_user_sessions_delete" AFTER DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION zapdesk_auth_user_of_row();--> statement-breakpoint
CREATE TRIGGER "auth_user_sessions_truncate" AFTER TRUNCATE ON "sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_auth_user_of_row();--> statement-breakpoint
CREATE TRIGGER "auth_user_user_queues" AFTER INSERT OR UPDATE OR DELETE ON "user_queues"
  FOR EACH ROW EXECUTE FUNCTION zapdesk_auth_user_of_row();--> statement-breakpoint
CREATE TRIGGER "auth_user_user_queues_truncate" AFTER TRUNCATE ON "user_queues"
  FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_auth_user_of_row();
