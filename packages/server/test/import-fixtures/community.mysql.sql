-- Whaticket Community (canove/whaticket-community) at HEAD, MySQL: the tables, columns and
-- constraints of /work/shared/migration-sources.md §4.1, as its Sequelize migrations create them.
CREATE TABLE `SequelizeMeta` (`name` varchar(255) NOT NULL PRIMARY KEY) CHARSET utf8mb4 COLLATE utf8mb4_unicode_ci;
INSERT INTO `SequelizeMeta` (`name`) VALUES
 ('20200717133438-create-users.js'), ('20200717144403-create-contacts.js'), ('20200717145643-create-tickets.js'),
 ('20200717151645-create-messages.js'), ('20200717170223-create-whatsapps.js'), ('20200723200315-create-contacts-custom-fields.js'),
 ('20200903215941-create-settings.js'), ('20201028124427-add-quoted-msg-to-messages.js'), ('20210108001431-add-unreadMessages-to-tickets.js'),
 ('20210108164404-create-queues.js'), ('20210108164504-add-queueId-to-tickets.js'), ('20210108174594-associate-whatsapp-queue.js'),
 ('20210108204708-associate-users-queue.js'), ('20210109192513-add-greetingMessage-to-whatsapp.js'), ('20210818102605-create-quickAnswers.js'),
 ('20211016014719-add-farewellMessage-to-whatsapp.js'), ('20220223095932-add-whatsapp-to-user.js');

CREATE TABLE `Whatsapps` (
  `id` int NOT NULL AUTO_INCREMENT PRIMARY KEY,
  `name` varchar(255) NOT NULL UNIQUE,
  `session` text, `qrcode` text, `status` varchar(255), `battery` varchar(255), `plugged` tinyint(1),
  `retries` int NOT NULL DEFAULT 0,
  `greetingMessage` text, `farewellMessage` text,
  `isDefault` tinyint(1) NOT NULL DEFAULT 0,
  `createdAt` datetime NOT NULL, `updatedAt` datetime NOT NULL
) CHARSET utf8mb4 COLLATE utf8mb4_bin;

CREATE TABLE `Users` (
  `id` int NOT NULL AUTO_INCREMENT PRIMARY KEY,
  `name` varchar(255) NOT NULL, `email` varchar(255) NOT NULL UNIQUE, `passwordHash` varchar(255) NOT NULL,
  `profile` varchar(255) NOT NULL DEFAULT 'admin', `tokenVersion` int NOT NULL DEFAULT 0,
  `whatsappId` int NULL REFERENCES `Whatsapps` (`id`) ON UPDATE CASCADE ON DELETE SET NULL,
  `createdAt` datetime NOT NULL, `updatedAt` datetime NOT NULL
) CHARSET utf8mb4 COLLATE utf8mb4_bin;

CREATE TABLE `Contacts` (
  `id` int NOT NULL AUTO_INCREMENT PRIMARY KEY,
  `name` varchar(255) NOT NULL, `number` varchar(255) NOT NULL UNIQUE, `email` varchar(255) NOT NULL DEFAULT '',
  `profilePicUrl` varchar(255), `isGroup` tinyint(1) NOT NULL DEFAULT 0,
  `createdAt` datetime NOT NULL, `updatedAt` datetime NOT NULL
) CHARSET utf8mb4 COLLATE utf8mb4_bin;

CREATE TABLE `ContactCustomFields` (
  `id` int NOT NULL AUTO_INCREMENT PRIMARY KEY,
  `name` varchar(255) NOT NULL, `value` varchar(255) NOT NULL,
  `contactId` int NOT NULL, FOREIGN KEY (`contactId`) REFERENCES `Contacts` (`id`) ON UPDATE CASCADE ON DELETE CASCADE,
  `createdAt` datetime NOT NULL, `updatedAt` datetime NOT NULL
) CHARSET utf8mb4 COLLATE utf8mb4_bin;

CREATE TABLE `Queues` (
  `id` int NOT NULL AUTO_INCREMENT PRIMARY KEY,
  `name` varchar(255) NOT NULL UNIQUE, `color` varchar(255) NOT NULL UNIQUE, `greetingMessage` text,
  `createdAt` datetime NOT NULL, `updatedAt` datetime NOT NULL
) CHARSET utf8mb4 COLLATE utf8mb4_bin;

CREATE TABLE `WhatsappQueues` (
  `whatsappId` int NOT NULL, `queueId` int NOT NULL, `createdAt` datetime NOT NULL, `updatedAt` datetime NOT NULL,
  PRIMARY KEY (`whatsappId`, `queueId`)
);
CREATE TABLE `UserQueues` (
  `userId` int NOT NULL, `queueId` int NOT NULL, `createdAt` datetime NOT NULL, `updatedAt` datetime NOT NULL,
  PRIMARY KEY (`userId`, `queueId`)
);

CREATE TABLE `Tickets` (
  `id` int NOT NULL AUTO_INCREMENT PRIMARY KEY,
  `status` varchar(255) NOT NULL DEFAULT 'pending', `lastMessage` text, `unreadMessages` int,
  `isGroup` tinyint(1) NOT NULL DEFAULT 0,
  `contactId` int, `userId` int, `whatsappId` int, `queueId` int,
  FOREIGN KEY (`contactId`) REFERENCES `Contacts` (`id`) ON UPDATE CASCADE ON DELETE CASCADE,
  `createdAt` datetime(6) NOT NULL, `updatedAt` datetime(6) NOT NULL
) CHARSET utf8mb4 COLLATE utf8mb4_bin;

CREATE TABLE `Messages` (
  `id` varchar(255) NOT NULL PRIMARY KEY,
  `body` text NOT NULL, `ack` int NOT NULL DEFAULT 0, `read` tinyint(1) NOT NULL DEFAULT 0,
  `fromMe` tinyint(1) NOT NULL DEFAULT 0, `mediaType` varchar(255), `mediaUrl` varchar(255),
  `isDeleted` tinyint(1) NOT NULL DEFAULT 0,
  `quotedMsgId` varchar(255) NULL,
  `ticketId` int NOT NULL, `contactId` int NULL,
  FOREIGN KEY (`ticketId`) REFERENCES `Tickets` (`id`) ON UPDATE CASCADE ON DELETE CASCADE,
  FOREIGN KEY (`quotedMsgId`) REFERENCES `Messages` (`id`) ON UPDATE CASCADE ON DELETE SET NULL,
  `createdAt` datetime(6) NOT NULL, `updatedAt` datetime(6) NOT NULL
) CHARSET utf8mb4 COLLATE utf8mb4_bin;

CREATE TABLE `QuickAnswers` (
  `id` int NOT NULL AUTO_INCREMENT PRIMARY KEY, `shortcut` text NOT NULL, `message` text NOT NULL,
  `createdAt` datetime NOT NULL, `updatedAt` datetime NOT NULL
) CHARSET utf8mb4 COLLATE utf8mb4_bin;

CREATE TABLE `Settings` (
  `key` varchar(255) NOT NULL PRIMARY KEY, `value` text NOT NULL, `createdAt` datetime NOT NULL, `updatedAt` datetime NOT NULL
);
INSERT INTO `Settings` VALUES ('userCreation', 'enabled', NOW(), NOW()), ('userApiToken', 'secret-token', NOW(), NOW());
