import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type GraphFake, startGraphFake } from "../../packages/server/test/graph-fake/index.js";

/** The Meta account the Cloud journey connects to, the same for the runner and its workers (through the environment). */
export interface E2eCloudAccount {
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  appSecret: string;
  displayPhoneNumber: string;
}

export function cloudAccount(): E2eCloudAccount {
  const account = process.env.E2E_CLOUD_ACCOUNT;
  if (!account) throw new Error("E2E_CLOUD_ACCOUNT is set by the global setup");
  return JSON.parse(account) as E2eCloudAccount;
}

const digits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join("");

/**
 * Starts the Graph API fake the server is pointed at (WHATSAPP_GRAPH_URL) with one business
 * account and an approved template, plus a small read-only HTTP window on it: journeys run in
 * worker processes and ask it what Meta received (`GET /sent`).
 */
export async function startE2eGraphFake() {
  const fake: GraphFake = await startGraphFake();
  const account: E2eCloudAccount = {
    phoneNumberId: `10${digits(13)}`,
    businessAccountId: `20${digits(13)}`,
    accessToken: `EAAG${randomBytes(24).toString("hex")}`,
    appSecret: randomBytes(16).toString("hex"),
    displayPhoneNumber: "+1 555-0100",
  };
  fake.addAccount(account);
  fake.setTemplates(account.businessAccountId, [
    {
      id: "1",
      name: "pedido_pronto",
      language: "pt_BR",
      status: "APPROVED",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Olá {{1}}, seu pedido está pronto." }],
    },
  ]);
  const control = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (request.method !== "GET" || url.pathname !== "/sent") {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(fake.sentMessages(url.searchParams.get("phoneNumberId") ?? undefined)));
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
  return {
    graphUrl: fake.url,
    controlUrl,
    account,
    async close() {
      await new Promise((resolve) => control.close(resolve));
      await fake.close();
    },
  };
}
