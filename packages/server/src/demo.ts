import { setTimeout as sleep } from "node:timers/promises";
import type { Db } from "./db/client.js";
import { startChatter } from "./demo-chatter.js";
import { findConnectionByName } from "./modules/connections/connections.repo.js";
import { findQueueByName } from "./modules/queues/queues.repo.js";
import { type AuthUser, findAuthUser, findUserByEmail } from "./modules/users/users.repo.js";
import { configOrExit, type RunningServer, startServer } from "./server.js";

/**
 * `npm run demo`: the product as a newcomer should first see it — two queues, two
 * agents and a simulator connection with customers already in conversation, and a few who keep
 * writing while it runs (demo-chatter.ts, every DEMO_CHATTER_SECONDS, 0 for none). Admins play a
 * customer themselves from Connections (the simulator connection's "write as a customer").
 * Embedded like `npm start`, in its own DATA_DIR; seeding happens once.
 */
const DEMO = {
  connection: "Zapdesk Demo",
  password: "demo123",
  queues: [
    { name: "Vendas", color: "#1273DE", greetingMessage: "Olá {{name}}! Aqui é o time de Vendas, já vamos te atender." },
    { name: "Suporte", color: "#008B02", greetingMessage: "Olá {{name}}, o Suporte recebeu sua mensagem." },
  ],
  agents: [
    { name: "Ana Souza", email: "ana@zapdesk.local", queue: "Vendas" },
    { name: "Bruno Lima", email: "bruno@zapdesk.local", queue: "Suporte" },
  ],
};

async function actor(db: Db, email: string): Promise<AuthUser> {
  const row = await findUserByEmail(db, email);
  const user = row && (await findAuthUser(db, row.id));
  if (!user) throw new Error(`demo user ${email} missing`);
  return user;
}

async function seedDemo(server: RunningServer): Promise<void> {
  const { services, database, simulator, sessions } = server;
  const db = database.db;
  if (await findConnectionByName(db, DEMO.connection)) return;
  const admin = await actor(db, server.config.adminEmail);

  const queueIds: Record<string, number> = {};
  for (const queue of DEMO.queues) {
    const existing = await findQueueByName(db, queue.name);
    queueIds[queue.name] = existing?.id ?? (await services.queues.create(admin, queue)).id;
  }
  for (const agent of DEMO.agents) {
    if (await findUserByEmail(db, agent.email)) continue;
    await services.users.create(admin, {
      name: agent.name,
      email: agent.email,
      password: DEMO.password,
      profile: "user",
      queueIds: [queueIds[agent.queue]],
    });
  }
  const connection = await services.connections.create(admin, {
    name: DEMO.connection,
    provider: "simulator",
    queueIds: Object.values(queueIds),
    greetingMessage: "Bem-vindo à Zapdesk! Escolha um setor:",
    farewellMessage: "Obrigado pelo contato! Até a próxima.",
    isDefault: true,
  });
  for (let i = 0; i < 100 && !sessions.isConnected(connection.id); i++) await sleep(100);

  const write = (from: string, name: string, body: string) => simulator.inbound(connection.id, { from, name, body });
  const ticketOf = async (number: string) => {
    const list = await services.tickets.list(admin, { searchParam: number, pageNumber: 1, showAll: true });
    return list.tickets[0];
  };
  const ana = await actor(db, "ana@zapdesk.local");
  const bruno = await actor(db, "bruno@zapdesk.local");

  await write("5511987650001", "Maria Oliveira", "Oi! Quanto custa o plano anual?");
  await sleep(50);
  await write("5511987650001", "Maria Oliveira", "1");

  await write("5521998760002", "João Santos", "Meu pedido ainda não chegou");
  await sleep(50);
  await write("5521998760002", "João Santos", "2");
  const joao = await ticketOf("5521998760002");
  await services.tickets.update(bruno, joao.id, { status: "open", userId: bruno.id });
  await services.messages.send(bruno, joao.id, { body: "*Bruno Lima*:\nOi João! Vou verificar o seu pedido agora mesmo." });
  await write("5521998760002", "João Santos", "Obrigado! O número é 48213.");

  await write("5531976540003", "Fernanda Costa", "Bom dia! Vocês abrem no sábado?");

  await write("5541965430004", "Lucas Pereira", "Vocês aceitam Pix?");
  await sleep(50);
  await write("5541965430004", "Lucas Pereira", "1");
  const lucas = await ticketOf("5541965430004");
  await services.tickets.update(ana, lucas.id, { status: "open", userId: ana.id });
  await services.messages.send(ana, lucas.id, { body: "*Ana Souza*:\nAceitamos sim, Pix, cartão e boleto." });
  await write("5541965430004", "Lucas Pereira", "Perfeito, obrigado!");
  await services.tickets.update(ana, lucas.id, { status: "closed", userId: ana.id });
}

const config = configOrExit({ DATA_DIR: "./data-demo", ADMIN_PASSWORD: "admin123", ...process.env });
startServer(config)
  .then(async (server) => {
    await seedDemo(server);
    const connection = await findConnectionByName(server.database.db, DEMO.connection);
    const everyMs = Number(process.env.DEMO_CHATTER_SECONDS ?? 40) * 1000;
    if (connection && everyMs > 0) {
      startChatter((from, name, body) => server.simulator.inbound(connection.id, { from, name, body }), {
        everyMs,
        onError: (error) => console.error("demo customer could not write:", error),
      });
    }
    const url = server.config.publicUrl ?? `http://localhost:${server.config.port}`;
    console.log(
      [
        "",
        `  Zapdesk demo is running at ${url}`,
        `  Administrator: ${server.config.adminEmail} / ${process.env.ADMIN_PASSWORD ?? "admin123"}`,
        ...DEMO.agents.map((a) => `  Agent (${a.queue}): ${a.email} / ${DEMO.password}`),
        '  Write as a customer: Connections → the message icon on "Zapdesk Demo" (administrator)',
        ...(everyMs > 0 ? [`  A few customers write every ~${everyMs / 1000} s (DEMO_CHATTER_SECONDS=0 to stop them)`] : []),
        "",
      ].join("\n"),
    );
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
