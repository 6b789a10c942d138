import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { MetricsSection } from "./metrics-section";

const MIN = 60_000;
const stats = (median: number | null, p90: number | null, count: number) => ({ median, p90, count });
const figures = (fr: number, tickets = 3) => ({
  firstResponse: stats(fr, 80 * MIN, tickets),
  resolution: stats(51 * 60 * MIN, 52 * 60 * MIN, 1),
  waiting: stats(40_000, null, 1),
  tickets,
});
const answer = (queueId: string | null) => ({
  from: "2026-06-01",
  to: "2026-06-03",
  tz: "UTC",
  overall: figures(queueId ? 10 * MIN : 4 * MIN),
  byDay: ["2026-06-01", "2026-06-02", "2026-06-03"].map((day) => ({ day, ...figures(4 * MIN) })),
  byQueue: [
    { queueId: 3, name: "Vendas", ...figures(4 * MIN) },
    { queueId: null, name: null, ...figures(80 * MIN, 1) },
  ],
  byUser: [{ userId: 2, name: "Ana", ...figures(4 * MIN) }],
  options: { queues: [{ id: 3, name: "Vendas" }], users: [{ id: 2, name: "Ana" }] },
});

describe("the dashboard's service times", () => {
  it("shows median and p90 in human durations, per queue and per agent, and filters by queue", async () => {
    const api = fakeApi({ "GET /api/dashboard/metrics": (r) => ({ body: answer(r.query.get("queueId")) }) });
    signedInAs(api, ADMIN);
    await renderWithProviders(<MetricsSection />);
    const first = await screen.findByRole("group", { name: "Primeira resposta" });
    expect(within(first).getByTestId("metric-firstResponse-median")).toHaveTextContent("4 min");
    expect(within(first).getByText("P90 1 h 20 min · 3 tickets")).toBeVisible();
    expect(within(screen.getByRole("group", { name: "Resolução" })).getByText("2 d 3 h")).toBeVisible();
    expect(within(screen.getByRole("group", { name: "Resolução" })).getByText("P90 2 d 4 h · 1 ticket")).toBeVisible();
    expect(within(screen.getByRole("group", { name: "Espera" })).getByText("40 s")).toBeVisible();

    const byQueue = screen.getByRole("table", { name: "Por fila" });
    expect(within(byQueue).getByRole("row", { name: /Vendas 3 4 min 1 h 20 min/ })).toBeInTheDocument();
    expect(within(byQueue).getByRole("row", { name: /Sem fila 1 1 h 20 min/ })).toBeInTheDocument();
    expect(within(screen.getByRole("table", { name: "Por atendente" })).getByRole("row", { name: /Ana 3/ })).toBeInTheDocument();
    expect(await screen.findByRole("region", { name: "Tempos por dia" })).toBeInTheDocument();

    const call = api.callsTo("GET", "/api/dashboard/metrics")[0];
    expect(call.query.get("from")).toMatch(/^\d{4}-\d{2}-01$/);
    expect(call.query.get("tz")).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(call.query.get("queueId")).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByRole("combobox", { name: "Fila" }));
    await user.click(await screen.findByRole("option", { name: "Vendas" }));
    await waitFor(() => expect(screen.getByTestId("metric-firstResponse-median")).toHaveTextContent("10 min"));
    expect(api.callsTo("GET", "/api/dashboard/metrics").at(-1)?.query.get("queueId")).toBe("3");

    await user.click(screen.getByRole("combobox", { name: "Período" }));
    await user.click(await screen.findByRole("option", { name: "Personalizado" }));
    await user.clear(screen.getByLabelText("Até"));
    await user.type(screen.getByLabelText("Até"), "2020-01-01");
    expect(screen.getByText("Período inválido (até 1 ano)")).toBeVisible();
    expect(screen.getByRole("button", { name: "Aplicar" })).toBeDisabled();
    // Without a choice, the agent filter says so.
    expect(screen.getByRole("combobox", { name: "Atendente" })).toHaveTextContent("Todos os atendentes");
  });
});
