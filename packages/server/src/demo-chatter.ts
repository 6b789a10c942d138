/**
 * `npm run demo` (issue 20): a few customers keep writing, so the inbox the newcomer looks at moves.
 * Every `everyMs` (± a third, so it does not tick like a clock) one of them sends the next line of
 * their conversation: first words, the queue they pick from the menu, then questions, in a loop.
 */
export interface DemoCustomer {
  number: string;
  name: string;
  lines: string[];
}

export const DEMO_CUSTOMERS: DemoCustomer[] = [
  {
    number: "5511976540101",
    name: "Camila Rocha",
    lines: ["Boa tarde! Queria saber dos planos.", "1", "Tem desconto para pagamento anual?", "E para 10 usuários?"],
  },
  {
    number: "5521965430102",
    name: "Rafael Alves",
    lines: ["Oi, meu acesso parou de funcionar", "2", "Aparece 'senha inválida' desde ontem", "Já tentei limpar o cache"],
  },
  {
    number: "5531954320103",
    name: "Patrícia Gomes",
    lines: ["Olá! Vocês emitem nota fiscal?", "1", "Preciso do CNPJ na nota, pode ser?", "Obrigada!"],
  },
];

export interface Chatter {
  /** No more lines; resolves once a line being written when it was called is stored. */
  stop(): Promise<void>;
}

export function startChatter(
  write: (from: string, name: string, body: string) => Promise<unknown>,
  options: { everyMs: number; customers?: DemoCustomer[]; random?: () => number; onError?(error: unknown): void },
): Chatter {
  const customers = options.customers ?? DEMO_CUSTOMERS;
  const random = options.random ?? Math.random;
  const next = customers.map(() => 0);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let writing: Promise<unknown> | undefined;

  const schedule = () => {
    if (stopped) return;
    const delay = options.everyMs * (2 / 3 + (2 / 3) * random());
    timer = setTimeout(tick, delay);
    // The demo's server keeps the process alive; the chatter never does on its own.
    timer.unref();
  };
  const tick = () => {
    const index = Math.floor(random() * customers.length) % customers.length;
    const customer = customers[index];
    const body = customer.lines[next[index] % customer.lines.length];
    next[index] += 1;
    writing = write(customer.number, customer.name, body)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        writing = undefined;
        schedule();
      });
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await writing;
    },
  };
}
