-- Izing (ldurans/izing.open.io), the Whazing ancestor: tenants instead of companies, FastReply,
-- Messages keyed by UUID (migration-sources.md §4.6). The importer recognises it and refuses it.
CREATE TABLE "SequelizeMeta" ("name" varchar(255) PRIMARY KEY);
INSERT INTO "SequelizeMeta" VALUES ('20200717133438-create-users.js'), ('20201220234957-create-table-tenant.js'),
 ('20210207131524-create-table-fastReply.js'), ('20210727193355-create-table-wallets-contact.js');
CREATE TABLE "Tenants" ("id" serial PRIMARY KEY, "status" varchar(255), "name" varchar(255), "ownerId" int, "businessHours" jsonb, "messageBusinessHours" text);
CREATE TABLE "FastReply" ("id" serial PRIMARY KEY, "key" varchar(255), "message" text, "userId" int, "tenantId" int);
