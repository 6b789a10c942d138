-- Ticketz (ticketz-oss/ticketz, 2026-08), PostgreSQL: the tables an import reads, with the columns
-- and constraints of /work/shared/migration-sources.md §4.2 and §4.3 (Messages keyed by
-- (id, ticketId), WhatsappLidMaps, BaileysKeys, QuickMessages.shortcode, TicketNotes, ack on
-- WhatsApp's own scale, dataJson holding the WAMessage).
CREATE TABLE "SequelizeMeta" ("name" varchar(255) PRIMARY KEY);
INSERT INTO "SequelizeMeta" VALUES
 ('20200717133438-create-users.js'), ('20210109192514-create-companies-table.js'), ('20210818102605-create-quickAnswers.js'),
 ('20231220192536-add-unique-constraint-to-tickets-table.js'), ('20231230100900-remove-unique-constraint-to-ticket-table.js'),
 ('20240417150500-readd-contacts-unique.js'), ('20240418173900-changes-messages-and-oldmessages-tables.js'),
 ('20240620080700-create-baileysKeys.js'), ('20250513082600-create-counters.js'), ('20250612092900-create-whatsapp-lid-maps.js'),
 ('20260312100000-create-baileyscontacts-table-and-convert-data.js'), ('20260522120000-add-error-to-messages.js');

CREATE TABLE "Plans" ("id" serial PRIMARY KEY, "name" varchar(255), "users" int, "connections" int, "queues" int, "value" float,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "Companies" ("id" serial PRIMARY KEY, "name" varchar(255) NOT NULL, "phone" varchar(255), "email" varchar(255),
  "status" boolean DEFAULT true, "dueDate" varchar(255), "recurrence" varchar(255), "schedules" jsonb DEFAULT '[]',
  "planId" int REFERENCES "Plans"("id"), "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "Users" ("id" serial PRIMARY KEY, "companyId" int REFERENCES "Companies"("id") ON DELETE CASCADE,
  "name" varchar(255) NOT NULL, "email" varchar(255) NOT NULL, "passwordHash" varchar(255) NOT NULL, "tokenVersion" int NOT NULL DEFAULT 0,
  "profile" varchar(255) NOT NULL DEFAULT 'admin', "super" boolean DEFAULT false, "online" boolean DEFAULT false,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE UNIQUE INDEX "idx_lower_email" ON "Users" (lower("email"));
CREATE TABLE "Whatsapps" ("id" serial PRIMARY KEY, "companyId" int REFERENCES "Companies"("id") ON DELETE CASCADE,
  "name" varchar(255) NOT NULL, "session" text, "qrcode" text, "status" varchar(255), "battery" varchar(255), "plugged" boolean,
  "retries" int NOT NULL DEFAULT 0, "provider" varchar(255) DEFAULT 'stable', "isDefault" boolean NOT NULL DEFAULT false, "token" text,
  "greetingMessage" text, "farewellMessage" text, "complationMessage" text, "outOfHoursMessage" text, "ratingMessage" text,
  "transferMessage" text, "language" varchar(255), "facebookUserId" text, "facebookUserToken" text, "facebookPageUserId" text,
  "tokenMeta" text, "channel" text DEFAULT 'whatsapp',
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now(),
  UNIQUE ("companyId", "name"));
CREATE TABLE "BaileysKeys" ("whatsappId" int NOT NULL, "type" varchar(255) NOT NULL, "key" varchar(255) NOT NULL, "value" text,
  PRIMARY KEY ("whatsappId", "type", "key"));
CREATE TABLE "Queues" ("id" serial PRIMARY KEY, "companyId" int REFERENCES "Companies"("id") ON DELETE CASCADE,
  "name" varchar(255) NOT NULL, "color" varchar(255) NOT NULL, "greetingMessage" text, "outOfHoursMessage" text, "schedules" jsonb DEFAULT '[]',
  "mediaPath" text, "mediaName" text,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now(),
  UNIQUE ("name", "companyId"), UNIQUE ("color", "companyId"));
CREATE TABLE "QueueOptions" ("id" serial PRIMARY KEY, "queueId" int REFERENCES "Queues"("id") ON DELETE CASCADE, "parentId" int,
  "title" text, "message" text, "option" text, "forwardQueueId" int, "exitChatbot" boolean, "mediaPath" text, "mediaName" text,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "UserQueues" ("userId" int NOT NULL, "queueId" int NOT NULL, "createdAt" timestamptz NOT NULL DEFAULT now(),
  "updatedAt" timestamptz NOT NULL DEFAULT now(), PRIMARY KEY ("userId", "queueId"));
CREATE TABLE "WhatsappQueues" ("whatsappId" int NOT NULL, "queueId" int NOT NULL, "createdAt" timestamptz NOT NULL DEFAULT now(),
  "updatedAt" timestamptz NOT NULL DEFAULT now(), PRIMARY KEY ("whatsappId", "queueId"));
CREATE TABLE "Contacts" ("id" serial PRIMARY KEY, "companyId" int REFERENCES "Companies"("id") ON DELETE CASCADE,
  "name" varchar(255) NOT NULL, "number" varchar(255) NOT NULL, "email" varchar(255) NOT NULL DEFAULT '', "profilePicUrl" text,
  "profileHiresPictureUrl" text, "isGroup" boolean NOT NULL DEFAULT false, "channel" text DEFAULT 'whatsapp', "disableBot" boolean DEFAULT false,
  "presence" text, "language" text,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "number_companyid_unique" UNIQUE ("number", "companyId"));
CREATE TABLE "ContactCustomFields" ("id" serial PRIMARY KEY, "name" varchar(255) NOT NULL, "value" varchar(255) NOT NULL,
  "contactId" int NOT NULL REFERENCES "Contacts"("id") ON DELETE CASCADE,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "WhatsappLidMaps" ("id" serial PRIMARY KEY, "lid" varchar(255) NOT NULL, "companyId" int NOT NULL,
  "contactId" int REFERENCES "Contacts"("id") ON DELETE CASCADE,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now(), UNIQUE ("lid", "companyId"));
CREATE TABLE "Tickets" ("id" serial PRIMARY KEY, "companyId" int REFERENCES "Companies"("id") ON DELETE CASCADE,
  "uuid" uuid DEFAULT gen_random_uuid(), "status" varchar(255) NOT NULL DEFAULT 'pending', "contactId" int REFERENCES "Contacts"("id") ON DELETE CASCADE,
  "userId" int, "whatsappId" int, "queueId" int, "queueOptionId" int, "chatbot" boolean DEFAULT false, "isGroup" boolean NOT NULL DEFAULT false,
  "unreadMessages" int, "lastMessage" text, "channel" text DEFAULT 'whatsapp',
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "Messages" ("id" varchar(255) NOT NULL, "companyId" int, "ticketId" int NOT NULL REFERENCES "Tickets"("id") ON DELETE CASCADE,
  "contactId" int, "queueId" int, "body" text NOT NULL, "fromMe" boolean NOT NULL DEFAULT false, "read" boolean NOT NULL DEFAULT false,
  "ack" int NOT NULL DEFAULT 0, "mediaUrl" text, "mediaType" varchar(255), "thumbnailUrl" text, "quotedMsgId" varchar(255),
  "isDeleted" boolean NOT NULL DEFAULT false, "isEdited" boolean NOT NULL DEFAULT false, "remoteJid" text, "participant" text,
  "dataJson" text, "channel" text DEFAULT 'whatsapp', "error" jsonb,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "Messges_id_ticketId_pk" PRIMARY KEY ("id", "ticketId"));
CREATE TABLE "OldMessages" ("id" serial PRIMARY KEY, "messageId" varchar(255), "ticketId" int, "body" text,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "Tags" ("id" serial PRIMARY KEY, "companyId" int, "name" varchar(255) NOT NULL, "color" varchar(255), "kanban" int DEFAULT 0,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "TicketTags" ("ticketId" int NOT NULL, "tagId" int NOT NULL, "createdAt" timestamptz NOT NULL DEFAULT now(),
  "updatedAt" timestamptz NOT NULL DEFAULT now(), UNIQUE ("ticketId", "tagId"));
CREATE TABLE "ContactTags" ("contactId" int NOT NULL, "tagId" int NOT NULL, "createdAt" timestamptz NOT NULL DEFAULT now(),
  "updatedAt" timestamptz NOT NULL DEFAULT now(), UNIQUE ("contactId", "tagId"));
CREATE TABLE "QuickMessages" ("id" serial PRIMARY KEY, "shortcode" varchar(255) NOT NULL, "message" text, "companyId" int, "userId" int,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "TicketNotes" ("id" serial PRIMARY KEY, "note" text NOT NULL, "userId" int, "contactId" int, "ticketId" int,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "Settings" ("id" serial PRIMARY KEY, "companyId" int, "key" varchar(255) NOT NULL, "value" text,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
