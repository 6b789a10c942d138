import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { CsatCard } from "./csat-card";

const figures = {
  overall: { count: 3, average: 3.67, distribution: [0, 1, 0, 1, 1] },
  byUser: [
    { userId: 2, name: "Ana", count: 2, average: 4.5, distribution: [0, 0, 0, 1, 1] },
    { userId: null, name: null, count: 1, average: 2, distribution: [0, 1, 0, 0, 0] },
  ],
  byQueue: [{ queueId: 3, name: "Vendas", color: "#1273DE", count: 3, average: 3.67, distribution: [0, 1, 0, 1, 1] }],
};

describe("the dashboard's CSAT card", () => {
  it("shows the month's average, answers and distribution, per agent and per queue", async () => {
    const api = fakeApi({ "GET /api/dashboard/ratings": { body: figures } });
    signedInAs(api, ADMIN);
    await renderWithProviders(<CsatCard month="2026-06" />);
    const card = await screen.findByRole("region", { name: "Satisfação dos clientes (CSAT)" });
    expect(within(card).getByTestId("csat-average")).toHaveTextContent("3.67");
    expect(within(card).getByTestId("csat-count")).toHaveTextContent("3");
    expect(within(card).getAllByRole("img", { name: /1 com nota 2, 0 com nota 3, 1 com nota 4, 1 com nota 5/ })).not.toHaveLength(
      0,
    );
    const byUser = within(card).getByRole("table", { name: "Por atendente" });
    expect(within(byUser).getByRole("row", { name: /Ana 4\.50 2/ })).toBeInTheDocument();
    expect(within(byUser).getByRole("row", { name: /Sem atendente 2\.00 1/ })).toBeInTheDocument();
    expect(within(card).getByRole("table", { name: "Por fila" })).toHaveTextContent("Vendas");
    const call = api.callsTo("GET", "/api/dashboard/ratings")[0];
    expect(call.query.get("month")).toBe("2026-06");
    expect(call.query.get("tz")).toBeTruthy();
  });

  it("says so when nothing was rated", async () => {
    const api = fakeApi({
      "GET /api/dashboard/ratings": {
        body: { overall: { count: 0, average: null, distribution: [0, 0, 0, 0, 0] }, byUser: [], byQueue: [] },
      },
    });
    signedInAs(api, ADMIN);
    await renderWithProviders(<CsatCard month="2026-05" />);
    expect(await screen.findByText("Nenhuma avaliação neste mês.")).toBeInTheDocument();
  });
});
