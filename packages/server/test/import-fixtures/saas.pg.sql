-- Whaticket SaaS baseline (launcherbr/whaticketsaas) on PostgreSQL: the portable core of
-- migration-sources.md §4.2 an import reads, with the baseline's constraints: one Tickets row per
-- (contactId, companyId, whatsappId), reused for every service session, each session a
-- TicketTraking row; Messages keyed by the WhatsApp id; QuickMessages.shortcode; UserRatings.
CREATE TABLE "SequelizeMeta" ("name" varchar(255) PRIMARY KEY);
INSERT INTO "SequelizeMeta" VALUES ('20200717133438-create-users.js'), ('20210109192514-create-companies-table.js'),
 ('20210109192530-add-unique-constraint-to-Contacts-table.js'), ('20220315110005-remove-constraint-to-Settings.js'),
 ('20230603212335-create-QueueIntegrations.js'), ('20231220192536-add-unique-constraint-to-tickets-table.js');
CREATE TABLE "Companies" ("id" serial PRIMARY KEY, "name" varchar(255) NOT NULL, "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "Users" ("id" serial PRIMARY KEY, "companyId" int, "name" varchar(255) NOT NULL, "email" varchar(255) NOT NULL,
  "passwordHash" varchar(255) NOT NULL, "tokenVersion" int NOT NULL DEFAULT 0, "profile" varchar(255) NOT NULL DEFAULT 'admin', "super" boolean DEFAULT false,
  "online" boolean DEFAULT false, "allTicket" text, "whatsappId" int, "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "Whatsapps" ("id" serial PRIMARY KEY, "companyId" int, "name" varchar(255) NOT NULL, "session" text, "qrcode" text, "status" varchar(255),
  "battery" varchar(255), "plugged" boolean, "retries" int NOT NULL DEFAULT 0, "provider" varchar(255) DEFAULT 'beta', "isDefault" boolean NOT NULL DEFAULT false,
  "token" text, "greetingMessage" text, "farewellMessage" text, "complationMessage" text, "outOfHoursMessage" text, "ratingMessage" text,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "Queues" ("id" serial PRIMARY KEY, "companyId" int, "name" varchar(255) NOT NULL, "color" varchar(255) NOT NULL, "greetingMessage" text,
  "outOfHoursMessage" text, "schedules" jsonb, "orderQueue" int, "integrationId" int, "promptId" int, "mediaPath" text, "mediaName" text,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now(), UNIQUE ("name", "companyId"), UNIQUE ("color", "companyId"));
CREATE TABLE "Contacts" ("id" serial PRIMARY KEY, "companyId" int, "name" varchar(255) NOT NULL, "number" varchar(255) NOT NULL, "email" varchar(255) NOT NULL DEFAULT '',
  "profilePicUrl" text, "isGroup" boolean NOT NULL DEFAULT false, "whatsappId" int,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now(), UNIQUE ("number", "companyId"));
CREATE TABLE "Tickets" ("id" serial PRIMARY KEY, "companyId" int, "uuid" uuid DEFAULT gen_random_uuid(), "status" varchar(255) NOT NULL DEFAULT 'pending',
  "contactId" int, "userId" int, "whatsappId" int, "queueId" int, "queueOptionId" int, "chatbot" boolean DEFAULT false, "isGroup" boolean NOT NULL DEFAULT false,
  "unreadMessages" int, "lastMessage" text, "useIntegration" boolean, "integrationId" int, "typebotSessionId" text, "typebotStatus" boolean, "promptId" int,
  "fromMe" boolean, "amountUsedBotQueues" int, "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "contactid_companyid_unique" UNIQUE ("contactId", "companyId", "whatsappId"));
CREATE TABLE "TicketTraking" ("id" serial PRIMARY KEY, "ticketId" int, "companyId" int, "whatsappId" int, "userId" int, "rated" boolean DEFAULT false,
  "startedAt" timestamptz, "queuedAt" timestamptz, "finishedAt" timestamptz, "ratingAt" timestamptz,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "UserRatings" ("id" serial PRIMARY KEY, "ticketId" int, "companyId" int, "userId" int, "rate" int,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "Messages" ("id" varchar(255) PRIMARY KEY, "companyId" int, "ticketId" int NOT NULL, "contactId" int, "queueId" int, "body" text NOT NULL,
  "fromMe" boolean NOT NULL DEFAULT false, "read" boolean NOT NULL DEFAULT false, "ack" int NOT NULL DEFAULT 0, "mediaUrl" text, "mediaType" varchar(255),
  "quotedMsgId" varchar(255), "isDeleted" boolean NOT NULL DEFAULT false, "isEdited" boolean DEFAULT false, "remoteJid" text, "participant" text, "dataJson" text,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "QuickMessages" ("id" serial PRIMARY KEY, "shortcode" varchar(255) NOT NULL, "message" text, "companyId" int, "userId" int, "mediaPath" text, "mediaName" text,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "Settings" ("id" serial PRIMARY KEY, "companyId" int, "key" varchar(255) NOT NULL, "value" text,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "Schedules" ("id" serial PRIMARY KEY, "body" text NOT NULL, "sendAt" timestamptz, "sentAt" timestamptz, "contactId" int, "ticketId" int,
  "userId" int, "companyId" int, "status" varchar(255), "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
