-- Issue 13: automatic assignment per queue (round-robin pointer kept here) and agents' capacity.
CREATE TABLE "routing_queues" (
	"queue_id" integer PRIMARY KEY NOT NULL REFERENCES "queues"("id") ON DELETE cascade,
	"auto_assign" boolean DEFAULT false NOT NULL,
	"last_assigned_user_id" integer REFERENCES "users"("id") ON DELETE set null,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "routing_users" (
	"user_id" integer PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"max_open_tickets" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
