import { expect, type Page } from "@playwright/test";
import { composer, waitingList, workingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, newSession, runId, test } from "./support/app";

// Issue 13 items 3 and 4: the next conversation, waiting since, and keyboard-first handling.
const run = runId();
const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;
const number = (n: number) => `5521${String(Date.now()).slice(-7)}${n}`;

test.describe.configure({ mode: "serial" });
test.setTimeout(240_000);

interface Ticket {
  id: number;
  status: string;
  contact: { name: string };
}

const ticketIdOf = (page: Page) => Number(new URL(page.url()).pathname.split("/").pop());

/** j until the focused row of the list on screen is `name` (other journeys' tickets may share the list). */
async function focusRow(page: Page, name: string) {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("j");
    const focused = await page.evaluate(() => document.activeElement?.closest("[role=listitem]")?.getAttribute("aria-label"));
    if (focused === name) return;
  }
  throw new Error(`no row ${name}`);
}

test("an agent handles conversations from the keyboard and lands on the next one", async ({ browser, request }) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const queue = await admin.createQueue(`Flow ${run}`, color());
  await admin.createUser(`Carla ${run}`, `carla-${run}@e2e.local`, "secret123", [queue.id]);
  await admin.createUser(`Diego ${run}`, `diego-${run}@e2e.local`, "secret123", [queue.id]);
  const carlaApi = new ZapdeskApi(request);
  await carlaApi.login(`carla-${run}@e2e.local`, "secret123");
  const diegoApi = new ZapdeskApi(request);
  await diegoApi.login(`diego-${run}@e2e.local`, "secret123");
  const whatsappId = await admin.createSimulator([queue.id]);

  // Three customers write, one after the other: three waiting tickets in the queue.
  const names = [1, 2, 3].map((n) => `Cliente ${n} ${run}`);
  const numbers = [1, 2, 3].map(number);
  for (const [i, name] of names.entries()) {
    await admin.customerWrites(whatsappId, { from: numbers[i], name, body: `Olá, sou o cliente ${i + 1}` });
  }

  const carla = await newSession(browser, `carla-${run}@e2e.local`, "secret123");
  const diego = await newSession(browser, `diego-${run}@e2e.local`, "secret123");
  await carla.goto("/tickets");
  await carla.getByRole("tab", { name: /Aguardando/ }).click();
  for (const name of names) await expect(waitingList(carla).getByRole("listitem", { name })).toBeVisible();

  // Waiting since: each waiting row shows its timer; oldest first on request.
  await expect(waitingList(carla).getByRole("listitem", { name: names[0] }).getByTestId("waiting-since")).toHaveText(/agora|min/);
  await carla.getByRole("button", { name: "Mais antigos primeiro" }).click();
  await expect(carla.getByRole("button", { name: "Mais antigos primeiro" })).toHaveAttribute("aria-pressed", "true");
  await expect
    .poll(async () => {
      const labels = await waitingList(carla)
        .getByRole("listitem")
        .evaluateAll((rows) => rows.map((r) => r.getAttribute("aria-label")));
      return labels.filter((l) => names.includes(l ?? ""));
    })
    .toEqual(names);
  await capture(carla, "keyboard-flow-waiting-oldest-first");

  // Keyboard only: j to the first customer, Enter opens it, a accepts, r to the composer, a reply, e resolves.
  await focusRow(carla, names[0]);
  await carla.keyboard.press("Enter");
  await expect(carla).toHaveURL(/\/tickets\/\d+$/);
  const first = ticketIdOf(carla);
  await expect(carla.getByRole("button", { name: "Aceitar" }).first()).toBeVisible();
  await carla.keyboard.press("a");
  // Accept: the list switches to Working on, the ticket stays selected.
  await expect(carla.getByRole("tab", { name: /Atendendo/ })).toHaveAttribute("aria-selected", "true");
  await expect(workingList(carla).getByRole("button", { name: names[0] })).toHaveAttribute("aria-current", "true");
  await expect(carla).toHaveURL(new RegExp(`/tickets/${first}$`));
  // The message box takes the focus when the ticket opens; Esc leaves it, r comes back to it.
  await expect(composer(carla)).toBeFocused();
  await carla.keyboard.press("Escape");
  await expect(composer(carla)).not.toBeFocused();
  await carla.keyboard.press("r");
  await expect(composer(carla)).toBeFocused();
  // While typing, the shortcut letters are just text.
  await carla.keyboard.type("Oi! Já estou vendo seu pedido, um instante.");
  await expect(composer(carla)).toHaveValue("Oi! Já estou vendo seu pedido, um instante.");
  await carla.keyboard.press("Enter");
  await expect(composer(carla)).toHaveValue("");
  await expect
    .poll(async () => (await admin.phoneReceived(whatsappId, numbers[0])).map((m) => m.body))
    .toEqual([`*Carla ${run}*:\nOi! Já estou vendo seu pedido, um instante.`]);
  await capture(carla, "keyboard-flow-reply");
  // Out of the composer (Esc), then e resolves and Carla lands on the next ticket, not an empty pane.
  await carla.keyboard.press("Escape");
  await carla.keyboard.press("e");
  await expect(carla).not.toHaveURL(new RegExp(`/tickets/${first}$`));
  await expect(carla).toHaveURL(/\/tickets\/\d+$/);
  const { ticket: expected } = await carlaApi.get<{ ticket: Ticket | null }>(`/tickets/next?after=${first}`);
  expect(ticketIdOf(carla)).toBe(expected?.id);
  const { tickets: visible } = await carlaApi.get<{ tickets: Ticket[] }>("/tickets?status=pending");
  // Alone in the queue (no other journey's waiting ticket): the oldest waiting is customer 2.
  if (visible.every((t) => names.includes(t.contact.name))) expect(expected?.contact.name).toBe(names[1]);
  await expect(carla.getByRole("button", { name: "Aceitar" }).first()).toBeVisible();
  expect((await admin.get<Ticket>(`/tickets/${first}`)).status).toBe("closed");
  await capture(carla, "keyboard-flow-next-ticket");

  // Diego accepts customer 3 from his Waiting list: his list switches to Working on.
  await diego.goto("/tickets");
  await diego.getByRole("tab", { name: /Aguardando/ }).click();
  await waitingList(diego).getByRole("listitem", { name: names[2] }).getByRole("button", { name: "Aceitar" }).click();
  await expect(diego.getByRole("tab", { name: /Atendendo/ })).toHaveAttribute("aria-selected", "true");
  await expect(workingList(diego).getByRole("button", { name: names[2] })).toBeVisible();
  const third = ticketIdOf(diego);
  await capture(diego, "keyboard-flow-accept-working-on");
  // t opens the transfer dialog (after Esc leaves the message box); Esc closes it.
  await expect(composer(diego)).toBeFocused();
  await diego.keyboard.press("Escape");
  await diego.keyboard.press("t");
  await expect(diego.getByRole("dialog", { name: "Transferir Ticket" })).toBeVisible();
  await capture(diego, "keyboard-flow-transfer-dialog");
  await diego.keyboard.press("Escape");
  await expect(diego.getByRole("dialog")).toHaveCount(0);
  // Return: Diego lands on the next waiting ticket of the queue, never the one he just returned.
  await diego.getByRole("button", { name: "Retornar" }).click();
  await expect(diego).not.toHaveURL(new RegExp(`/tickets/${third}$`));
  const { ticket: diegoNext } = await diegoApi.get<{ ticket: Ticket | null }>(`/tickets/next?after=${third}`);
  await expect(diego).toHaveURL(diegoNext ? new RegExp(`/tickets/${diegoNext.id}$`) : /\/tickets$/);

  // Carla accepts (a) and resolves (e) what is left of the queue; at the end: All caught up.
  for (let i = 0; i < 6; i++) {
    const id = ticketIdOf(carla);
    if (!id) break;
    const status = (await admin.get<Ticket>(`/tickets/${id}`)).status;
    // The pane shows the ticket it landed on before its keys are pressed (its actions are registered with it).
    await expect(carla.getByRole("heading", { name: new RegExp(`#${id}$`) })).toBeVisible();
    if (status === "pending") {
      await carla.keyboard.press("a");
      await expect(carla.getByRole("button", { name: "Resolver" })).toBeVisible();
    }
    // An open ticket's message box has the focus: Esc first.
    if (await composer(carla).count()) await carla.keyboard.press("Escape");
    await carla.keyboard.press("e");
    await expect(carla).not.toHaveURL(new RegExp(`/tickets/${id}$`));
    await expect.poll(async () => (await admin.get<Ticket>(`/tickets/${id}`)).status).toBe("closed");
    if (new URL(carla.url()).pathname === "/tickets") break;
  }
  const { ticket: left } = await carlaApi.get<{ ticket: Ticket | null }>("/tickets/next");
  if (!left) {
    await expect(carla).toHaveURL(/\/tickets$/);
    await expect(carla.getByText("Tudo em dia")).toBeVisible();
    await capture(carla, "keyboard-flow-all-caught-up");
  }

  // ? shows every shortcut, translated.
  await carla.keyboard.press("?");
  const overlay = carla.getByRole("dialog", { name: "Atalhos de teclado" });
  await expect(overlay.getByText("Próximo ticket da lista")).toBeVisible();
  await expect(overlay.getByText("Ir para um ticket, contato ou tela")).toBeVisible();
  await capture(carla, "keyboard-flow-shortcuts-overlay");
  await carla.keyboard.press("Escape");
  await expect(overlay).toHaveCount(0);

  // Ctrl+K: jump to customer 1's ticket by name, then to a screen.
  await carla.keyboard.press("Control+k");
  const palette = carla.getByRole("dialog", { name: "Ir para" });
  const input = palette.getByRole("combobox");
  await expect(input).toBeFocused();
  await input.fill(`Cliente 1 ${run}`);
  await expect(palette.getByRole("option", { name: new RegExp(`Ticket #${first}`) })).toBeVisible();
  await expect(palette.getByRole("option", { name: /Contato ·/ }).first()).toBeVisible();
  await capture(carla, "keyboard-flow-palette-ticket");
  await input.press("Enter");
  await expect(carla).toHaveURL(new RegExp(`/tickets/${first}$`));
  await expect(carla.getByRole("heading", { name: new RegExp(names[0]) })).toBeVisible();
  await carla.keyboard.press("Control+k");
  await input.fill("usu");
  // An agent has no administration screens.
  await expect(palette.getByRole("option", { name: /Usuários/ })).toHaveCount(0);
  await input.fill("contat");
  await expect(palette.getByRole("option", { name: /Contatos/ })).toBeVisible();
  await input.press("Enter");
  await expect(carla).toHaveURL(/\/contacts$/);

  // The admin's palette reaches the administration screens.
  const adminPage = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await adminPage.goto("/tickets");
  await expect(adminPage.getByRole("tab", { name: /Inbox/ })).toBeVisible();
  const adminPalette = adminPage.getByRole("dialog", { name: "Ir para" });
  await expect(async () => {
    if (!(await adminPalette.count())) await adminPage.keyboard.press("Control+k");
    await expect(adminPalette).toBeVisible({ timeout: 1000 });
  }).toPass();
  await adminPalette.getByRole("combobox").fill("usu");
  await expect(adminPalette.getByRole("option", { name: /Usuários/ })).toBeVisible();
  await capture(adminPage, "keyboard-flow-palette-admin");
  await adminPalette.getByRole("combobox").press("Enter");
  await expect(adminPage).toHaveURL(/\/users$/);
});
