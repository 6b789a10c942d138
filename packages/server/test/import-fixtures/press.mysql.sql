-- Press Ticket (rtenorioh/Press-Ticket), MySQL, single tenant: loaded after community.mysql.sql,
-- these are its deltas from migration-sources.md §4.5 (the sending agent on Messages, numberLid,
-- masteradmin, tags, more migrations).
INSERT INTO `SequelizeMeta` (`name`) VALUES ('20250627000000-create-activity-logs.js'), ('20250925001000-create-message-reactions.js'),
 ('20251023233453-create-poll-votes.js');
ALTER TABLE `Messages` ADD COLUMN `userId` int NULL, ADD COLUMN `isEdited` tinyint(1) NOT NULL DEFAULT 0, ADD COLUMN `isStarred` tinyint(1) NOT NULL DEFAULT 0,
  ADD COLUMN `isPinned` tinyint(1) NOT NULL DEFAULT 0, ADD COLUMN `albumId` varchar(255) NULL, ADD COLUMN `fileSize` int NULL;
ALTER TABLE `Contacts` ADD COLUMN `numberLid` varchar(255) NULL, ADD COLUMN `messengerId` varchar(255) NULL, ADD COLUMN `instagramId` varchar(255) NULL,
  ADD COLUMN `telegramId` varchar(255) NULL, ADD COLUMN `webchatId` varchar(255) NULL, ADD COLUMN `nameManuallyEdited` tinyint(1) DEFAULT 0, ADD COLUMN `lastContactAt` datetime NULL;
ALTER TABLE `Tickets` ADD COLUMN `channel` varchar(255) DEFAULT 'whatsapp', ADD COLUMN `pinnedChat` tinyint(1) DEFAULT 0, ADD COLUMN `mutedChat` tinyint(1) DEFAULT 0,
  ADD COLUMN `favoritedChat` tinyint(1) DEFAULT 0;
ALTER TABLE `Users` ADD COLUMN `active` tinyint(1) DEFAULT 1, ADD COLUMN `online` tinyint(1) DEFAULT 0, ADD COLUMN `lastLoginAt` datetime NULL;
ALTER TABLE `Whatsapps` ADD COLUMN `number` varchar(255) NULL, ADD COLUMN `type` varchar(255) NULL, ADD COLUMN `isDisplay` tinyint(1) DEFAULT 0;
ALTER TABLE `QuickAnswers` ADD COLUMN `mediaPath` varchar(255) NULL;
CREATE TABLE `Tags` (`id` int NOT NULL AUTO_INCREMENT PRIMARY KEY, `name` varchar(255) NOT NULL, `color` varchar(255) NOT NULL,
  `createdAt` datetime NOT NULL, `updatedAt` datetime NOT NULL);
CREATE TABLE `ContactTags` (`contactId` int NOT NULL, `tagId` int NOT NULL, `createdAt` datetime NOT NULL, `updatedAt` datetime NOT NULL,
  PRIMARY KEY (`contactId`, `tagId`));
CREATE TABLE `MessageReactions` (`id` int NOT NULL AUTO_INCREMENT PRIMARY KEY, `messageId` varchar(255), `type` varchar(255), `userId` int,
  `createdAt` datetime NOT NULL, `updatedAt` datetime NOT NULL);
