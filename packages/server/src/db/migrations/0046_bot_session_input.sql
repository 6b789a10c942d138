-- The input a queue's Typebot waits on ("text input", "file input", "choice input", …; null once the
-- flow asks for nothing): a customer's file is answered as that input reads it (the link as the text
-- for a file input; the caption, with the link attached, for the others).
ALTER TABLE "bot_sessions" ADD COLUMN "input_type" text;
