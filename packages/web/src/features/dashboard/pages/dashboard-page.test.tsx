import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
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
    renderWithProviders(<DashboardPage />);
    const open = await screen.findByRole("group", { name: "Em Atendimento" });
    expect(within(open).getByText("2")).toBeVisible();
    expect(within(screen.getByRole("group", { name: "Aguardando" })).getByText("4")).toBeVisible();
    expect(within(screen.getByRole("group", { name: "Finalizado" })).getByText("9")).toBeVisible();
    expect(await screen.findByRole("figure", { name: "Tickets finalizados por usuário" })).toBeInTheDocument();
    expect(screen.getAllByRole("figure")).toHaveLength(4);

    const first = api.callsTo("GET", "/api/dashboard")[0];
    expect(first.query.get("tz")).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(first.query.get("month")).toMatch(/^\d{4}-\d{2}$/);

    fireEvent.change(screen.getByLabelText("Mês"), { target: { value: "2026-02" } });
    expect(api.callsTo("GET", "/api/dashboard").some((c) => c.query.get("month") === "2026-02")).toBe(false);
    await userEvent.setup().click(screen.getByRole("button", { name: "Clique aqui" }));
    await waitFor(() => expect(within(screen.getByRole("group", { name: "Em Atendimento" })).getByText("11")).toBeVisible());
  });
});
