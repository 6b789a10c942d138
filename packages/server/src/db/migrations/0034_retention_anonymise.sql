-- Issue 22 §1: a retention policy may anonymise the contact once nothing else refers to it. The
-- contact row stays (its tickets and ratings keep pointing at it) with nothing that says who it was.
ALTER TABLE "retention_policies" DROP CONSTRAINT "retention_policies_remove_check";--> statement-breakpoint
ALTER TABLE "retention_policies" ADD CONSTRAINT "retention_policies_remove_check" CHECK ("remove" IN ('media', 'messages', 'anonymise'));--> statement-breakpoint
ALTER TABLE "retention_state" ADD COLUMN "contacts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "anonymised_at" timestamp with time zone;
