-- Multiflow ("Whaticket Plus + FlowBuilder"), PostgreSQL: the SaaS core (§4.2) with the deltas of
-- /work/shared/migration-sources.md §4.4 an import reads: Contacts.lid, Messages.isPrivate (notes
-- stored as messages) and wid, Whatsapps' Cloud API fields, QuickMessages shared with Meta
-- templates (isOficial), CompaniesSettings, tickets with statuses beyond pending/open/closed.
CREATE TABLE "SequelizeMeta" ("name" varchar(255) PRIMARY KEY);
INSERT INTO "SequelizeMeta" VALUES
 ('20200717133438-create-users.js'), ('20210109192514-create-companies-table.js'), ('20230711080001-create-Index-Message-wid.js'),
 ('20230731331007-add-lgpdAccept-Contact.js'), ('20230901101300-create-CompaniesSettings.js'),
 ('20250115000000-add-lid-to-contacts.js'), ('20250612092900-create-whatsapp-lid-maps.js');
CREATE TABLE "Companies" ("id" serial PRIMARY KEY, "name" varchar(255) NOT NULL, "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "CompaniesSettings" ("id" serial PRIMARY KEY, "companyId" int, "userRating" text, "chatBotType" text, "enableLGPD" text);
CREATE TABLE "Users" ("id" serial PRIMARY KEY, "companyId" int, "name" varchar(255) NOT NULL, "email" varchar(255) NOT NULL,
  "passwordHash" varchar(255) NOT NULL, "tokenVersion" int NOT NULL DEFAULT 0, "profile" varchar(255) NOT NULL DEFAULT 'admin',
  "super" boolean DEFAULT false, "allTicket" text, "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "Whatsapps" ("id" serial PRIMARY KEY, "companyId" int, "name" varchar(255) NOT NULL, "session" text, "status" varchar(255),
  "isDefault" boolean NOT NULL DEFAULT false, "greetingMessage" text, "farewellMessage" text, "ratingMessage" text, "channel" text DEFAULT 'whatsapp',
  "phone_number_id" text, "waba_id" text, "send_token" text, "business_id" text, "phone_number" text, "color" text,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "Queues" ("id" serial PRIMARY KEY, "companyId" int, "name" varchar(255) NOT NULL, "color" varchar(255) NOT NULL, "greetingMessage" text,
  "orderQueue" int, "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now(), UNIQUE ("name", "companyId"), UNIQUE ("color", "companyId"));
CREATE TABLE "UserQueues" ("userId" int NOT NULL, "queueId" int NOT NULL, "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "WhatsappQueues" ("whatsappId" int NOT NULL, "queueId" int NOT NULL, "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "Contacts" ("id" serial PRIMARY KEY, "companyId" int, "name" varchar(255) NOT NULL, "number" varchar(255) NOT NULL,
  "email" varchar(255) NOT NULL DEFAULT '', "profilePicUrl" text, "isGroup" boolean NOT NULL DEFAULT false, "lid" text, "remoteJid" text,
  "whatsappId" int, "active" boolean DEFAULT true, "channel" text, "urlPicture" text,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now(), UNIQUE ("number", "companyId"));
CREATE INDEX "contacts_lid_company" ON "Contacts" ("lid", "companyId");
CREATE TABLE "ContactCustomFields" ("id" serial PRIMARY KEY, "name" varchar(255) NOT NULL, "value" varchar(255) NOT NULL,
  "contactId" int NOT NULL REFERENCES "Contacts"("id") ON DELETE CASCADE, "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "WhatsappLidMaps" ("id" serial PRIMARY KEY, "lid" varchar(255) NOT NULL, "companyId" int NOT NULL, "contactId" int);
CREATE TABLE "Tickets" ("id" serial PRIMARY KEY, "companyId" int, "status" varchar(255) NOT NULL DEFAULT 'pending', "contactId" int,
  "userId" int, "whatsappId" int, "queueId" int, "isGroup" boolean NOT NULL DEFAULT false, "unreadMessages" int, "lastMessage" text,
  "isBot" boolean, "valorVenda" float, "imported" timestamptz, "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now(),
  UNIQUE ("id", "contactId", "companyId", "whatsappId"));
CREATE TABLE "Messages" ("id" serial PRIMARY KEY, "wid" varchar(255), "companyId" int, "ticketId" int NOT NULL, "contactId" int, "queueId" int,
  "body" text NOT NULL, "fromMe" boolean NOT NULL DEFAULT false, "read" boolean NOT NULL DEFAULT false, "ack" int NOT NULL DEFAULT 0,
  "mediaUrl" text, "mediaType" varchar(255), "quotedMsgId" int, "isDeleted" boolean NOT NULL DEFAULT false, "isEdited" boolean DEFAULT false,
  "isPrivate" boolean DEFAULT false, "isForwarded" boolean DEFAULT false, "ticketTrakingId" int, "remoteJid" text, "participant" text, "dataJson" text,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE INDEX "messages_wid" ON "Messages" ("wid");
CREATE TABLE "Tags" ("id" serial PRIMARY KEY, "companyId" int, "name" varchar(255) NOT NULL, "color" varchar(255), "kanban" int DEFAULT 0,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "TicketTags" ("ticketId" int NOT NULL, "tagId" int NOT NULL, "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "ContactTags" ("contactId" int NOT NULL, "tagId" int NOT NULL, "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "ContactWallets" ("id" serial PRIMARY KEY, "walletId" int NOT NULL, "contactId" int NOT NULL, "queueId" int, "companyId" int,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
CREATE TABLE "QuickMessages" ("id" serial PRIMARY KEY, "shortcode" varchar(255) NOT NULL, "message" text, "companyId" int, "userId" int,
  "mediaPath" text, "mediaName" text, "mediaType" text, "geral" boolean, "visao" boolean, "isOficial" boolean DEFAULT false, "metaID" text,
  "category" text, "language" text, "status" text, "whatsappId" int,
  "createdAt" timestamptz NOT NULL DEFAULT now(), "updatedAt" timestamptz NOT NULL DEFAULT now());
