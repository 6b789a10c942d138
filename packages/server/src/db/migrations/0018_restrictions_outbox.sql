-- Issue 18 "the number stays safe": what WhatsApp restricts on a QR connection's number (the
-- reach-out time-lock and the monthly cap on new chats), as the connection's API shows it.
ALTER TABLE "whatsapps" ADD COLUMN "restriction" jsonb;--> statement-breakpoint
-- An automatic message that would open a chat while the number is restricted waits in the outbox,
-- held: not failed, not sent, looked at again until the restriction ends. A held row does not hold
-- back the later messages of its chat (an agent answering goes).
ALTER TABLE "outbox" ADD COLUMN "held" boolean DEFAULT false NOT NULL;
