-- Issue 24 item 3: the contact search keeps its trigram index at any table size, with or without
-- fresh statistics. The search key was an inlined SQL function, so the planner costed a scan at a
-- few operators a row, which on 20k contacts put a scan of every row level with the index (the
-- real scan costs 5-10x more: lower() of every name). After a burst of new contacts, before the
-- next ANALYZE, the estimates moved and the plan flipped to the scan. Declared as what it is, a
-- function with a cost (PL/pgSQL is not inlined, so COST applies), a scan pays for every row's
-- key and the index wins whatever the row estimate. Same result, so contacts_search_trgm stays valid.
CREATE OR REPLACE FUNCTION zapdesk_contact_search_key(name text, number text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE COST 1000
  AS $$ BEGIN RETURN lower(name) || chr(10) || number; END $$;
