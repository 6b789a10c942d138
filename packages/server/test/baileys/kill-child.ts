/**
 * Run by kill.test.ts in its own process (from the test run's bundle, server-bundle.ts): a Zapdesk Baileys session on the test's database
 * receives one real encrypted message through the real makeWASocket, and the process dies
 * (process.exit, no cleanup) at the moment the pipeline would start storing it. Prints one JSON
 * line: the message id and whether Baileys had already receipted it to the server.
 * Env: KILL_DB_URL (PostgreSQL) or KILL_DB_DIR (a DATA_DIR: its embedded PostgreSQL), KILL_WHATSAPP_ID.
 */
import { writeSync } from "node:fs";
import type { ChannelHandlers } from "../../src/channels/channel.js";
import { openDatabase } from "../../src/db/client.js";
import { channelContext } from "../channel-support.js";
import { localWhatsApp, OFFLINE_DRAINED, pairedDevice, simulatedCustomer } from "./real-whatsapp.js";

const MESSAGE_ID = "3AKILLEDBEFORECOMMIT";

const database = process.env.KILL_DB_URL
  ? await openDatabase({ url: process.env.KILL_DB_URL, poolSize: 2 })
  : await openDatabase({ dataDir: process.env.KILL_DB_DIR });
const whatsappId = Number(process.env.KILL_WHATSAPP_ID);
const server = await localWhatsApp();
const customer = await simulatedCustomer(await pairedDevice(database.db, whatsappId));

const nothing = async () => {};
const handlers: ChannelHandlers = {
  onQr: () => {},
  onPairingCode: () => {},
  onStatus: () => {},
  onClosed: () => {},
  onUpdate: nothing,
  onCall: nothing,
  onIdentity: nothing,
  async onMessage(message) {
    let receipted = false;
    for (let i = 0; i < 50 && !receipted; i++) {
      receipted = (await server.sentNodes()).some((n) => n.tag === "receipt" && n.attrs.id === message.wid);
      if (!receipted) await new Promise((r) => setTimeout(r, 20));
    }
    writeSync(1, `${JSON.stringify({ wid: message.wid, body: message.body, receipted })}\n`);
    process.exit(0);
  },
};

const session = server.factory(channelContext(database.db, whatsappId, handlers));
await session.start();
const ws = await server.ws();
ws.emit("CB:ib,,offline", OFFLINE_DRAINED);
ws.emit("CB:message", await customer.message(MESSAGE_ID, "mensagem que não pode se perder"));
setTimeout(() => {
  writeSync(2, "the message never reached the pipeline\n");
  process.exit(2);
}, 15_000);
