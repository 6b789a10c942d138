import { QueryClient } from "@tanstack/react-query";
import { act, renderHook, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AgentLoad, Ticket, UserPresence } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import i18n from "../../lib/i18n";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../../testing/fake-api";
import { renderWithProviders } from "../../testing/render";
import { AgentsLoadCard } from "../dashboard/components/agents-load-card";
import { QueueModal } from "../queues";
import { agentsLoadKey, applyPresenceEvent, presenceKey } from "./api";
import { UserCapacityField } from "./auto-assign-fields";
import { ChoosingHeader, useChoosingGroup } from "./choosing-group";
import { PresenceDot } from "./presence-dot";

const QUEUE = {
  id: 3,
  name: "Vendas",
  color: "#2576d2",
  greetingMessage: "",
  schedule: null,
  closingReason: "off" as const,
  createdAt: "",
  updatedAt: "",
};
const ticket = (id: number, choosingQueue: boolean) => ({ id, choosingQueue }) as Ticket;

describe("routing (issue 13)", () => {
  it("groups the tickets choosing a queue under a collapsed header, expanded on demand", () => {
    const tickets = [ticket(1, true), ticket(2, false), ticket(3, true)];
    const { result } = renderHook(() => useChoosingGroup(tickets, true));
    expect(result.current.items.map((i) => (i.kind === "ticket" ? i.ticket.id : `h${i.count}`))).toEqual(["h2", 2]);
    act(() => result.current.toggle());
    expect(result.current.items.map((i) => (i.kind === "ticket" ? i.ticket.id : `h${i.count}`))).toEqual(["h2", 1, 3, 2]);
    const plain = renderHook(() => useChoosingGroup(tickets, false));
    expect(plain.result.current.items).toHaveLength(3);
  });

  it("names the group with its count and tells whether it is open", async () => {
    await i18n.changeLanguage("en");
    const user = userEvent.setup();
    let toggled = 0;
    await renderWithProviders(<ChoosingHeader count={52} expanded={false} onToggle={() => toggled++} />);
    const button = screen.getByRole("button", { name: "Choosing a queue (52)" });
    expect(button).toHaveAttribute("aria-expanded", "false");
    await user.click(button);
    expect(toggled).toBe(1);
    await i18n.changeLanguage("pt");
  });

  it("shows a named presence dot", async () => {
    await i18n.changeLanguage("pt");
    await renderWithProviders(<PresenceDot status="away" />);
    expect(screen.getByRole("img", { name: "Ausente" })).toHaveAttribute("data-presence", "away");
  });

  it("applies a presence event to the cached lists", () => {
    const client = new QueryClient();
    const row: UserPresence = { userId: 5, name: "Ana", status: "offline", openTickets: 2, queueIds: [1] };
    client.setQueryData(presenceKey, [row]);
    client.setQueryData(agentsLoadKey, [{ ...row, profile: "user", queueIds: [1], pendingInQueues: 3 }]);
    applyPresenceEvent(client, { action: "update", userId: 5, status: "online" });
    expect(client.getQueryData<UserPresence[]>(presenceKey)?.[0].status).toBe("online");
    expect(client.getQueryData<AgentLoad[]>(agentsLoadKey)?.[0]).toMatchObject({ status: "online", pendingInQueues: 3 });
  });

  it("a presence event during a fetch of the list (fetched on every screen) reaches its answer", async () => {
    const client = new QueryClient();
    const row: UserPresence = { userId: 5, name: "Ana", status: "offline", openTickets: 2, queueIds: [1] };
    let answer!: (rows: UserPresence[]) => void;
    const answered = new Promise<UserPresence[]>((resolve) => {
      answer = resolve;
    });
    const fetched = client.fetchQuery({ queryKey: presenceKey, queryFn: () => answered });
    applyPresenceEvent(client, { action: "update", userId: 5, status: "online" });
    answer([row]);
    await fetched;
    expect(client.getQueryData<UserPresence[]>(presenceKey)?.[0].status).toBe("online");
  });

  it("lists agents with status, open tickets and waiting in their queues, online first", async () => {
    await i18n.changeLanguage("pt");
    const api = fakeApi({
      "GET /api/dashboard/agents": {
        body: [
          { userId: 7, name: "Zeca", status: "offline", openTickets: 0, profile: "user", queueIds: [1], pendingInQueues: 4 },
          { userId: 8, name: "Bia", status: "online", openTickets: 3, profile: "user", queueIds: [1], pendingInQueues: 4 },
        ],
      },
    });
    signedInAs(api, AGENT);
    await renderWithProviders(<AgentsLoadCard />);
    const card = await screen.findByRole("group", { name: "Atendentes: status e carga" });
    const rows = await within(card).findAllByRole("row");
    expect(rows.map((r) => r.textContent)).toEqual([
      "AtendenteStatusTickets abertosAguardando nas filas",
      "BiaOnline34",
      "ZecaOffline04",
    ]);
    expect(within(rows[1]).getByRole("img", { name: "Online" })).toBeInTheDocument();
  });

  it("lets an admin set an agent's capacity", async () => {
    await i18n.changeLanguage("pt");
    const api = fakeApi({
      "GET /api/routing": { body: { queues: [{ queueId: 3, autoAssign: false }], users: [{ userId: 7, maxOpenTickets: 2 }] } },
      "PUT /api/routing/users/:id": (r) => ({ body: { userId: 7, ...(r.body as object) } }),
    });
    signedInAs(api, ADMIN);
    const user = userEvent.setup();
    await renderWithProviders(<UserCapacityField userId={7} />);
    const capacity = await screen.findByRole("spinbutton", { name: /Máximo de tickets abertos/ });
    await waitFor(() => expect(capacity).toHaveValue(2));
    await user.clear(capacity);
    await user.type(capacity, "0");
    expect(screen.getByText("Um número de 1 a 1000, ou vazio")).toBeInTheDocument();
    await user.clear(capacity);
    await user.tab();
    await waitFor(() => expect(api.callsTo("PUT", "/api/routing/users/7")[0]?.body).toEqual({ maxOpenTickets: null }));
  });

  it("shows agents nothing of automatic assignment", async () => {
    const api = fakeApi({});
    signedInAs(api, AGENT);
    await renderWithProviders(<QueueModal open queue={QUEUE} onClose={() => {}} />);
    await screen.findByRole("dialog");
    expect(screen.queryByRole("switch", { name: /Atribuição automática|Automatic assignment/ })).not.toBeInTheDocument();
    expect(api.callsTo("GET", "/api/routing")).toHaveLength(0);
  });
});
