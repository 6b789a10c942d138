-- Issue 21 "switch from Whaticket": every row the importer creates (or merges into an existing
-- one) remembers the source row it came from, so a second run imports nothing twice and a run
-- killed half-way resumes where it stopped. `source` names the old database (dialect, database
-- name and company), `entity` the kind of row, `source_id` the old key as text.
CREATE TABLE "import_map" (
	"source" text NOT NULL,
	"entity" text NOT NULL,
	"source_id" text NOT NULL,
	"target_id" bigint NOT NULL,
	"merged" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_map_source_entity_source_id_pk" PRIMARY KEY("source","entity","source_id")
);--> statement-breakpoint
CREATE INDEX "import_map_target_idx" ON "import_map" USING btree ("entity","target_id");
