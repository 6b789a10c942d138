import { expect } from "@playwright/test";
import { apiSession, logIn, nav, runId, test } from "./support/app";

test("an agent sees no Administration and the server refuses admin calls", async ({ page, request }) => {
  const run = runId();
  const email = `agente-perm-${run}@e2e.local`;
  const admin = await apiSession(request);
  await admin.post("/users", { name: `Agente ${run}`, email, password: "secret123", profile: "user", queueIds: [] });
  await admin.post("/contacts", { name: `Contato ${run}`, number: `5521${String(Date.now()).slice(-8)}`, email: "" });

  await logIn(page, email, "secret123");
  await expect(nav(page).getByRole("link", { name: "Contatos" })).toBeVisible();
  await expect(nav(page).getByText("Administração")).toHaveCount(0);
  for (const item of ["Usuários", "Conexões", "Filas", "Configurações"]) {
    await expect(nav(page).getByRole("link", { name: item })).toHaveCount(0);
  }

  await test.step("admin screens send the agent home", async () => {
    await page.goto("/users");
    await expect(page).toHaveURL(/\/$/);
  });

  await test.step("contacts can be edited but not deleted", async () => {
    await nav(page).getByRole("link", { name: "Contatos" }).click();
    await expect(page.getByRole("button", { name: `Editar Contato ${run}` })).toBeVisible();
    await expect(page.getByRole("button", { name: `Excluir Contato ${run}` })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Importar contatos" })).toHaveCount(0);
  });

  await test.step("the server answers 403 to an admin call made with the agent's token", async () => {
    const result = await page.evaluate(async () => {
      const response = await fetch("/api/users", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${localStorage.getItem("token")}` },
        body: JSON.stringify({ name: "Intruder", email: "intruder@e2e.local", password: "secret123", profile: "admin" }),
      });
      return { status: response.status, body: await response.json() };
    });
    expect(result.status).toBe(403);
    expect(result.body.error).toBe("ERR_NO_PERMISSION");
  });

  await test.step("the agent edits their own profile", async () => {
    await page.getByRole("button", { name: "Menu do usuário" }).click();
    await page.getByRole("menuitem", { name: "Perfil" }).click();
    const dialog = page.getByRole("dialog", { name: "Editar usuário" });
    await expect(dialog.getByLabel("Email")).toHaveValue(email);
    await expect(dialog.getByRole("combobox", { name: "Perfil" })).toHaveCount(0);
    await dialog.getByLabel("Nome").fill(`Agente Renomeado ${run}`);
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(page.getByText("Usuário salvo com sucesso.")).toBeVisible();
  });
});
