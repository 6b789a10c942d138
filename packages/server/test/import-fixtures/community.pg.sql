-- Whaticket Community (canove/whaticket-community) at HEAD on PostgreSQL (DB_DIALECT=postgres): the
-- tables of community.mysql.sql as Sequelize's postgres dialect creates them (serial ids, booleans,
-- timestamptz). Sequelize writes its times in the -03:00 session timezone; so does this session.
SET TIME ZONE 'America/Sao_Paulo';
CREATE TABLE "SequelizeMeta" ("name" varchar(255) NOT NULL PRIMARY KEY);
INSERT INTO "SequelizeMeta" ("name") VALUES
 ('20200717133438-create-users.js'), ('20200717144403-create-contacts.js'), ('20200717145643-create-tickets.js'),
 ('20200717151645-create-messages.js'), ('20200717170223-create-whatsapps.js'), ('20200723200315-create-contacts-custom-fields.js'),
 ('20200903215941-create-settings.js'), ('20201028124427-add-quoted-msg-to-messages.js'), ('20210108001431-add-unreadMessages-to-tickets.js'),
 ('20210108164404-create-queues.js'), ('20210108164504-add-queueId-to-tickets.js'), ('20210108174594-associate-whatsapp-queue.js'),
 ('20210108204708-associate-users-queue.js'), ('20210109192513-add-greetingMessage-to-whatsapp.js'), ('20210818102605-create-quickAnswers.js'),
 ('20211016014719-add-farewellMessage-to-whatsapp.js'), ('20220223095932-add-whatsapp-to-user.js');

CREATE TABLE "Whatsapps" (
  "id" serial PRIMARY KEY,
  "name" varchar(255) NOT NULL UNIQUE,
  "session" text, "qrcode" text, "status" varchar(255), "battery" varchar(255), "plugged" boolean,
  "retries" integer NOT NULL DEFAULT 0,
  "greetingMessage" text, "farewellMessage" text,
  "isDefault" boolean NOT NULL DEFAULT false,
  "createdAt" timestamptz NOT NULL, "updatedAt" timestamptz NOT NULL
);

CREATE TABLE "Users" (
  "id" serial PRIMARY KEY,
  "name" varchar(255) NOT NULL, "email" varchar(255) NOT NULL UNIQUE, "passwordHash" varchar(255) NOT NULL,
  "profile" varchar(255) NOT NULL DEFAULT 'admin', "tokenVersion" integer NOT NULL DEFAULT 0,
  "whatsappId" integer NULL REFERENCES "Whatsapps" ("id") ON UPDATE CASCADE ON DELETE SET NULL,
  "createdAt" timestamptz NOT NULL, "updatedAt" timestamptz NOT NULL
);

CREATE TABLE "Contacts" (
  "id" serial PRIMARY KEY,
  "name" varchar(255) NOT NULL, "number" varchar(255) NOT NULL UNIQUE, "email" varchar(255) NOT NULL DEFAULT '',
  "profilePicUrl" varchar(255), "isGroup" boolean NOT NULL DEFAULT false,
  "createdAt" timestamptz NOT NULL, "updatedAt" timestamptz NOT NULL
);

CREATE TABLE "ContactCustomFields" (
  "id" serial PRIMARY KEY,
  "name" varchar(255) NOT NULL, "value" varchar(255) NOT NULL,
  "contactId" integer NOT NULL REFERENCES "Contacts" ("id") ON UPDATE CASCADE ON DELETE CASCADE,
  "createdAt" timestamptz NOT NULL, "updatedAt" timestamptz NOT NULL
);

CREATE TABLE "Queues" (
  "id" serial PRIMARY KEY,
  "name" varchar(255) NOT NULL UNIQUE, "color" varchar(255) NOT NULL UNIQUE, "greetingMessage" text,
  "createdAt" timestamptz NOT NULL, "updatedAt" timestamptz NOT NULL
);

CREATE TABLE "WhatsappQueues" (
  "whatsappId" integer NOT NULL, "queueId" integer NOT NULL, "createdAt" timestamptz NOT NULL, "updatedAt" timestamptz NOT NULL,
  PRIMARY KEY ("whatsappId", "queueId")
);
CREATE TABLE "UserQueues" (
  "userId" integer NOT NULL, "queueId" integer NOT NULL, "createdAt" timestamptz NOT NULL, "updatedAt" timestamptz NOT NULL,
  PRIMARY KEY ("userId", "queueId")
);

CREATE TABLE "Tickets" (
  "id" serial PRIMARY KEY,
  "status" varchar(255) NOT NULL DEFAULT 'pending', "lastMessage" text, "unreadMessages" integer,
  "isGroup" boolean NOT NULL DEFAULT false,
  "contactId" integer REFERENCES "Contacts" ("id") ON UPDATE CASCADE ON DELETE CASCADE,
  "userId" integer, "whatsappId" integer, "queueId" integer,
  "createdAt" timestamptz NOT NULL, "updatedAt" timestamptz NOT NULL
);

CREATE TABLE "Messages" (
  "id" varchar(255) NOT NULL PRIMARY KEY,
  "body" text NOT NULL, "ack" integer NOT NULL DEFAULT 0, "read" boolean NOT NULL DEFAULT false,
  "fromMe" boolean NOT NULL DEFAULT false, "mediaType" varchar(255), "mediaUrl" varchar(255),
  "isDeleted" boolean NOT NULL DEFAULT false,
  "quotedMsgId" varchar(255) NULL REFERENCES "Messages" ("id") ON UPDATE CASCADE ON DELETE SET NULL,
  "ticketId" integer NOT NULL REFERENCES "Tickets" ("id") ON UPDATE CASCADE ON DELETE CASCADE,
  "contactId" integer NULL,
  "createdAt" timestamptz NOT NULL, "updatedAt" timestamptz NOT NULL
);

CREATE TABLE "QuickAnswers" (
  "id" serial PRIMARY KEY, "shortcut" text NOT NULL, "message" text NOT NULL,
  "createdAt" timestamptz NOT NULL, "updatedAt" timestamptz NOT NULL
);

CREATE TABLE "Settings" (
  "key" varchar(255) NOT NULL PRIMARY KEY, "value" text NOT NULL, "createdAt" timestamptz NOT NULL, "updatedAt" timestamptz NOT NULL
);
INSERT INTO "Settings" VALUES ('userCreation', 'enabled', now(), now()), ('userApiToken', 'secret-token', now(), now());
