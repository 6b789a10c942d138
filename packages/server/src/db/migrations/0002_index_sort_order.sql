DROP INDEX "messages_ticket_created_idx";--> statement-breakpoint
DROP INDEX "tickets_status_updated_idx";--> statement-breakpoint
DROP INDEX "tickets_queue_status_updated_idx";--> statement-breakpoint
DROP INDEX "tickets_user_status_updated_idx";--> statement-breakpoint
DROP INDEX "tickets_contact_idx";--> statement-breakpoint
DROP INDEX "tickets_updated_idx";--> statement-breakpoint
CREATE INDEX "tickets_status_user_queue_idx" ON "tickets" USING btree ("status","user_id","queue_id");--> statement-breakpoint
CREATE INDEX "messages_ticket_created_idx" ON "messages" USING btree ("ticket_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_status_updated_idx" ON "tickets" USING btree ("status","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_queue_status_updated_idx" ON "tickets" USING btree ("queue_id","status","updated_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_user_status_updated_idx" ON "tickets" USING btree ("user_id","status","updated_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_contact_idx" ON "tickets" USING btree ("contact_id","whatsapp_id","updated_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_updated_idx" ON "tickets" USING btree ("updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);