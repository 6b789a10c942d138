import { expect } from "@playwright/test";
import { QUEUE_PALETTE } from "../packages/core/src/constants";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, logIn, nav, newSession, runId, test } from "./support/app";

test.setTimeout(180_000);

test("an admin sets up a queue, an agent and a contact, watched live from a second session", async ({
  page,
  browser,
  baseURL,
}) => {
  const run = runId();
  const queueName = `Fila ${run}`;
  const agentEmail = `agente-${run}@e2e.local`;
  const contactName = `Cliente ${run}`;
  const contactNumber = `5511${String(Date.now()).slice(-8)}`;

  await test.step("an anonymous visit lands on the login screen", async () => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText(`© ${new Date().getFullYear()}`)).toBeVisible();
    await capture(page, "login");
    // A fresh install does not offer sign-up until an admin enables it in Settings.
    await expect(page.getByRole("link", { name: /Cadastre-se/ })).toHaveCount(0);
    await page.goto("/signup");
    await expect(page.getByRole("heading", { name: "Cadastre-se" })).toBeVisible();
    await expect(page.getByText("A criação do usuário foi desabilitada pelo administrador.")).toBeVisible();
    await capture(page, "signup");
  });

  await test.step("log in, and a reload keeps the session", async () => {
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await expect(page.getByText("Login efetuado com sucesso!")).toBeVisible();
    await page.reload();
    await expect(page).toHaveURL(/\/$/);
    await expect(nav(page).getByText("Administração")).toBeVisible();
    await capture(page, "dashboard");
  });

  await test.step("create a queue", async () => {
    await nav(page).getByRole("link", { name: "Filas" }).click();
    // The queue list is loaded before the form opens: the colour picker marks the colours it holds.
    await expect(page.getByRole("button", { name: "Adicionar fila" })).toBeVisible();
    await expect(page.locator('tr[aria-busy="true"]')).toHaveCount(0);
    await page.getByRole("button", { name: "Adicionar fila" }).click();
    const dialog = page.getByRole("dialog", { name: "Adicionar fila" });
    await dialog.getByLabel("Nome").fill(queueName);
    // Colours are unique per queue: the picker marks those other queues (other journeys, earlier runs)
    // hold, and a taken one cannot be picked.
    const free = dialog.getByRole("radio", { disabled: false });
    await expect(dialog.getByRole("radio")).toHaveCount(QUEUE_PALETTE.length);
    await free.nth(Date.now() % (await free.count())).click();
    await dialog.getByLabel("Mensagem de saudação").fill("Bem-vindo à fila!");
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    await expect(page.getByText("Fila salva com sucesso")).toBeVisible();
    await expect(page.getByRole("cell", { name: queueName, exact: true })).toBeVisible();
    await capture(page, "queues");
  });

  await test.step("create an agent in that queue", async () => {
    await nav(page).getByRole("link", { name: "Usuários" }).click();
    await page.getByRole("button", { name: "Adicionar usuário" }).click();
    const dialog = page.getByRole("dialog", { name: "Adicionar usuário" });
    await dialog.getByLabel("Nome").fill(`Agente ${run}`);
    await dialog.getByLabel("Senha", { exact: true }).fill("secret123");
    await dialog.getByLabel("Email").fill(agentEmail);
    await dialog.getByRole("combobox", { name: "Filas" }).click();
    await page.getByRole("option", { name: queueName }).click();
    await page.keyboard.press("Escape");
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    await expect(page.getByText("Usuário salvo com sucesso.")).toBeVisible();
    await expect(page.getByRole("cell", { name: agentEmail, exact: true })).toBeVisible();
    await capture(page, "users");
  });

  const watcher = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await watcher.goto("/contacts");
  await expect(watcher.getByRole("heading", { name: "Contatos" })).toBeVisible();

  await test.step("create a contact with extra info; the second session sees it appear", async () => {
    await nav(page).getByRole("link", { name: "Contatos" }).click();
    await page.getByRole("button", { name: "Adicionar contato" }).click();
    const dialog = page.getByRole("dialog", { name: "Adicionar contato" });
    await dialog.getByLabel("Nome", { exact: true }).fill(contactName);
    await dialog.getByLabel("Número do WhatsApp").fill(contactNumber);
    await dialog.getByLabel("Email").fill(`cliente-${run}@e2e.local`);
    await dialog.getByRole("button", { name: "Adicionar informação" }).click();
    await dialog.getByLabel("Nome do campo").fill("CPF");
    await dialog.getByLabel("Valor").fill("123.456.789-00");
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    await expect(page.getByText("Contato salvo com sucesso.")).toBeVisible();
    await expect(page.getByRole("cell", { name: contactName, exact: true })).toBeVisible();
    await expect(watcher.getByRole("cell", { name: contactName, exact: true })).toBeVisible();
    await capture(page, "contacts");
  });

  await test.step("the extra info was stored", async () => {
    await page.getByRole("button", { name: `Editar ${contactName}` }).click();
    const dialog = page.getByRole("dialog", { name: "Editar contato" });
    await expect(dialog.getByLabel("Nome do campo")).toHaveValue("CPF");
    await expect(dialog.getByLabel("Valor")).toHaveValue("123.456.789-00");
    await dialog.getByRole("button", { name: "Cancelar" }).click();
  });

  await test.step("a duplicated number is refused with a translated toast", async () => {
    await page.getByRole("button", { name: "Adicionar contato" }).click();
    const dialog = page.getByRole("dialog", { name: "Adicionar contato" });
    await dialog.getByLabel("Nome", { exact: true }).fill(`Outro ${run}`);
    await dialog.getByLabel("Número do WhatsApp").fill(contactNumber);
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Já existe um contato com este número." })).toBeVisible();
    await dialog.getByRole("button", { name: "Cancelar" }).click();
  });

  await test.step("a deleted contact disappears from the second session too", async () => {
    await page.getByRole("button", { name: `Excluir ${contactName}` }).click();
    await page.getByRole("button", { name: "Ok" }).click();
    await expect(page.getByText("Contato excluído com sucesso!")).toBeVisible();
    await expect(watcher.getByRole("cell", { name: contactName, exact: true })).toHaveCount(0);
  });
  await watcher.context().close();

  await test.step("settings: the sales page URL feeds the embedded page", async () => {
    await nav(page).getByRole("link", { name: "Configurações" }).click();
    await expect(page.getByRole("textbox", { name: "Token da API" })).not.toHaveValue("");
    const url = `${baseURL}/api/health`;
    await page.getByRole("textbox", { name: "URL da página de vendas" }).fill(url);
    await page.getByRole("button", { name: "Salvar URL da página de vendas" }).click();
    await expect(page.getByText("Configurações salvas com sucesso.")).toBeVisible();
    await capture(page, "settings");
    await nav(page).getByRole("link", { name: "Comprar licença" }).click();
    await expect(page.locator("iframe")).toHaveAttribute("src", url);
    await nav(page).getByRole("link", { name: "Comunidade" }).click();
    await expect(page.getByText("Página não configurada")).toBeVisible();
    await capture(page, "community-empty");
  });

  await test.step("a simulator connection comes up", async () => {
    await nav(page).getByRole("link", { name: "Conexões" }).click();
    await page.getByRole("button", { name: "Adicionar WhatsApp" }).click();
    const dialog = page.getByRole("dialog", { name: "Adicionar WhatsApp" });
    await dialog.getByLabel("Nome").fill(`Simulador ${run}`);
    await dialog.getByRole("radio", { name: "Simulador" }).check();
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    await expect(page.getByText("WhatsApp salvo com sucesso.")).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: `Simulador ${run}` });
    await expect(row).toBeVisible();
    await expect(row.getByRole("img", { name: "Conectado" })).toBeVisible({ timeout: 30_000 });
    await capture(page, "connections");
  });

  await test.step("quick answers and the tool screens", async () => {
    await nav(page).getByRole("link", { name: "Respostas rápidas" }).click();
    await page.getByRole("button", { name: "Adicionar resposta rápida" }).click();
    const dialog = page.getByRole("dialog", { name: "Adicionar resposta rápida" });
    await dialog.getByLabel("Atalho").fill(`oi${run}`.slice(0, 15));
    await dialog.getByLabel("Resposta rápida").fill("Olá! Como posso ajudar?");
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    await expect(page.getByRole("cell", { name: "Olá! Como posso ajudar?" })).toBeVisible();
    await capture(page, "quick-answers");

    await nav(page).getByRole("link", { name: "Envio automático" }).click();
    await expect(page.getByText("Envie mensagens e arquivos em blocos de 30 contatos.")).toBeVisible();
    await page.getByRole("button", { name: "Enviar" }).click();
    await expect(page.getByRole("alertdialog")).toHaveCount(0); // required fields stop the submit
    await page.getByLabel("ID de disparo").fill("1");
    await page.getByLabel("Números (um por linha)").fill("5511999999999");
    await page.getByLabel("Mensagem").fill("Promoção!");
    await page.getByRole("button", { name: "Enviar" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Esta ferramenta está disponível na versão paga.");
    await page.getByRole("button", { name: "OK" }).click();
    await page.getByRole("button", { name: "Mostrar ID de disparo" }).click();
    // The id of the connected default connection, or the server's reason prefixed with 'Erro: '.
    await expect(page.getByRole("alertdialog").locator("#message-dialog-text")).toHaveText(/^(\d+|Erro: .+)$/);
    await page.getByRole("button", { name: "OK" }).click();
    await capture(page, "bulk-messages");

    for (const [item, shot] of [
      ["Mídias", "bulk-media"],
      ["Grupos", "groups"],
      ["Instagram Direct", "insta-direct"],
      ["SMS", "sms"],
      ["Chamada de voz", "voice-call"],
      ["Chatbot", "chatbot"],
      ["Agendamento", "schedule"],
      ["Histórico", "history"],
      ["Tickets", "tickets"],
    ] as const) {
      await nav(page).getByRole("link", { name: item, exact: true }).click();
      await capture(page, shot);
    }
    await nav(page).getByRole("link", { name: "Chatbot", exact: true }).click();
    await expect(page.getByRole("img", { name: /Como o chatbot atende/ })).toBeVisible();
  });

  await test.step("switch language: the interface changes at once", async () => {
    await page.getByRole("button", { name: "Mudar idioma" }).click();
    await page.getByRole("menuitem", { name: "English" }).click();
    await expect(nav(page).getByRole("link", { name: "Contacts" })).toBeVisible();
    await expect(nav(page).getByText("Administration")).toBeVisible();
    await nav(page).getByRole("link", { name: "Users" }).click();
    await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Add user" })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
  });

  await test.step("log out", async () => {
    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/contacts");
    await expect(page).toHaveURL(/\/login$/);
  });
});
