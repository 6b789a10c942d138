CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change); a generated column and an index need an
-- IMMUTABLE expression. The SQL-standard body is bound at creation, so no search_path is needed later.
CREATE OR REPLACE FUNCTION zapdesk_unaccent(input text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN unaccent('unaccent'::regdictionary, input);--> statement-breakpoint
-- A user's search text as a prefix query: every whitespace-separated word with a letter or digit, unaccented, quoted (so no
-- tsquery syntax gets through) and suffixed with :*, all of them required. NULL when nothing is left.
CREATE OR REPLACE FUNCTION zapdesk_search_query(input text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN to_tsquery('simple'::regconfig, (
    SELECT string_agg('''' || replace(replace(word, '\', '\\'), '''', '''''') || ''':*', ' & ')
    FROM regexp_split_to_table(zapdesk_unaccent(input), '\s+') AS word
    WHERE word ~ '[[:alnum:]]'
  ));--> statement-breakpoint
DROP INDEX "messages_body_trgm";--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, zapdesk_unaccent(body))) STORED;--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search");
