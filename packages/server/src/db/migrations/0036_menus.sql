-- Issue 23 §3: menus that branch (see docs/menus.md). A connection's menu is a tree of nodes: the
-- root (no parent) is the first level the customer gets; each other node is an option of its
-- parent's level: a sub-menu (target 'menu'), a queue, an agent (in a queue) or a person (the
-- connection's first queue). A menu node's level has its "talk to a person" words, its timeout
-- (minutes, and the queue it hands over to) and its fallback queue (after two re-asks).
CREATE TABLE "menu_nodes" (
	"id" serial PRIMARY KEY NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"parent_id" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"message" text,
	"media_path" text,
	"media_name" text,
	"media_mime" text,
	"target" text DEFAULT 'menu' NOT NULL,
	"queue_id" integer,
	"user_id" integer,
	"person_words" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"timeout_minutes" integer,
	"timeout_queue_id" integer,
	"fallback_queue_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "menu_nodes" ADD CONSTRAINT "menu_nodes_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_nodes" ADD CONSTRAINT "menu_nodes_parent_id_menu_nodes_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."menu_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_nodes" ADD CONSTRAINT "menu_nodes_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_nodes" ADD CONSTRAINT "menu_nodes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_nodes" ADD CONSTRAINT "menu_nodes_timeout_queue_id_queues_id_fk" FOREIGN KEY ("timeout_queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_nodes" ADD CONSTRAINT "menu_nodes_fallback_queue_id_queues_id_fk" FOREIGN KEY ("fallback_queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "menu_nodes_whatsapp_idx" ON "menu_nodes" USING btree ("whatsapp_id","parent_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "menu_nodes_one_root" ON "menu_nodes" USING btree ("whatsapp_id") WHERE "menu_nodes"."parent_id" is null;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "menu_node_id" integer;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "menu_retries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "menu_deadline_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_menu_node_id_menu_nodes_id_fk" FOREIGN KEY ("menu_node_id") REFERENCES "public"."menu_nodes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tickets_menu_deadline_idx" ON "tickets" USING btree ("menu_deadline_at") WHERE "tickets"."menu_deadline_at" is not null;--> statement-breakpoint
-- The one-level menu of every connection with two or more queues becomes its tree, unchanged: the
-- root's text stays the connection's greeting (message null), one option per queue in id order.
INSERT INTO "menu_nodes" ("whatsapp_id", "parent_id", "position", "target")
SELECT wq."whatsapp_id", NULL, 0, 'menu' FROM "whatsapp_queues" wq GROUP BY wq."whatsapp_id" HAVING count(*) >= 2;--> statement-breakpoint
INSERT INTO "menu_nodes" ("whatsapp_id", "parent_id", "position", "label", "target", "queue_id")
SELECT r."whatsapp_id", r."id", row_number() OVER (PARTITION BY r."id" ORDER BY q."id") - 1, q."name", 'queue', q."id"
FROM "menu_nodes" r
JOIN "whatsapp_queues" wq ON wq."whatsapp_id" = r."whatsapp_id"
JOIN "queues" q ON q."id" = wq."queue_id"
WHERE r."parent_id" IS NULL;--> statement-breakpoint
-- Customers at the old menu now answer the root level (the same numbers pick the same queues).
UPDATE "tickets" t SET "menu_node_id" = r."id"
FROM "menu_nodes" r
WHERE r."whatsapp_id" = t."whatsapp_id" AND r."parent_id" IS NULL
  AND t."status" = 'pending' AND t."queue_id" IS NULL AND t."user_id" IS NULL AND t."menu_sent_at" IS NOT NULL;
