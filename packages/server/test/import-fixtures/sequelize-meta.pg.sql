-- Only Sequelize's migration log: each flavour test fills it with that flavour's tell-tale names.
CREATE TABLE "SequelizeMeta" ("name" varchar(255) PRIMARY KEY);
