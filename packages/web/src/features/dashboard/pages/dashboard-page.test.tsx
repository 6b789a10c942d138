import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import DashboardPage from "./dashboard-page";

const answer = (open: number) => ({
  counts: { open, pending: 4, closed: 9 },
  today: [{ key: 8, count: 1 }],
  month: [{ key: 1, count: 2 }],
  closedByMonth: [{ key: 1, count: 3 }],
  closedByUser: [{ userId: 1, name: "Administrator", count: 9 }],
});

describe("the dashboard", () => {
  it("shows the server's counts and charts, and 'Clique aqui' loads the chosen month in the viewer's time zone", async () => {
    const api = fakeApi({ "GET /api/dashboard": (r) => ({ body: answer(r.query.get("month") === "2026-02" ? 11 : 2) }) });
    signedInAs(api, ADMIN);
    await renderWithProviders(<DashboardPage />);
    const open = await screen.findByRole("group", { name: "Em Atendimento" });
    expect(within(open).getByText("2")).toBeVisible();
    expect(within(screen.getByRole("group", { name: "Aguardando" })).getByText("4")).toBeVisible();
    expect(within(screen.getByRole("group", { name: "Finalizado" })).getByText("9")).toBeVisible();
    expect(await screen.findByRole("figure", { name: "Tickets finalizados por usuário" })).toBeInTheDocument();
    expect(screen.getAllByRole("figure")).toHaveLength(4);

    const first = api.callsTo("GET", "/api/dashboard")[0];
    expect(first.query.get("tz")).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(first.query.get("month")).toMatch(/^\d{4}-\d{2}$/);

    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole("combobox", { name: "Mês" }), "fevereiro");
    await user.selectOptions(screen.getByRole("combobox", { name: "Ano" }), "2026");
    expect(api.callsTo("GET", "/api/dashboard").some((c) => c.query.get("month") === "2026-02")).toBe(false);
    await user.click(screen.getByRole("button", { name: "Clique aqui" }));
    await waitFor(() => expect(within(screen.getByRole("group", { name: "Em Atendimento" })).getByText("11")).toBeVisible());
  });

  afterEach(() => i18n.changeLanguage("pt"));

  it("names the months in the interface's language, whatever the browser's", async () => {
    const api = fakeApi({ "GET /api/dashboard": { body: answer(1) } });
    signedInAs(api, ADMIN);
    await i18n.changeLanguage("es");
    await renderWithProviders(<DashboardPage />);
    const month = await screen.findByRole("combobox", { name: "Mes" });
    const names = within(month)
      .getAllByRole("option")
      .map((o) => o.textContent);
    expect(names).toHaveLength(12);
    expect(names.slice(0, 3)).toEqual(["enero", "febrero", "marzo"]);
    expect(navigator.language).not.toMatch(/^es/);
  });
});
