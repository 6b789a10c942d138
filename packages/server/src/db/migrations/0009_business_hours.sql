-- Business hours per queue (issue 11 item 3): the weekly schedule, null = always open.
ALTER TABLE "queues" ADD COLUMN "schedule" jsonb;
--> statement-breakpoint
-- The queue's local date the out-of-hours message last went to the ticket: at most once a day.
ALTER TABLE "tickets" ADD COLUMN "out_of_hours_sent_on" date;
