import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { SimulatorOutboundMessage } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, AGENT, type FakeRequest, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aCloudConnection, aConnection } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import ConnectionsPage from "../pages/connections-page";

describe("the simulated customer (issue 20 §2.9)", () => {
  it("lets an admin write as a customer of a simulator connection and read what Zapdesk answers", async () => {
    await i18n.changeLanguage("en");
    const simulator = aConnection({ id: 4, name: "Demo", provider: "simulator", status: "CONNECTED" });
    const qr = aConnection({ id: 5, name: "Sales phone", provider: "baileys", status: "CONNECTED" });
    const phone: SimulatorOutboundMessage[] = [];
    const api = fakeApi({
      "GET /api/whatsapp": { body: [simulator, qr, aCloudConnection({ status: "CONNECTED" })] },
      "POST /api/simulator/:id/inbound": (request: FakeRequest) => {
        const { from } = request.body as { from: string };
        // The connection answers with its menu, as the server would after a customer's first words.
        phone.push({
          wid: "out-1",
          to: from,
          isGroup: false,
          body: "Welcome! Choose a queue:\n*1* - Sales",
          timestamp: new Date(Date.now() + 1000).toISOString(),
          ack: 1,
          deleted: false,
        });
        return { body: { id: "in-1" } };
      },
      "GET /api/simulator/:id/outbound": (request: FakeRequest) => ({
        body: { messages: phone.filter((m) => m.to === request.query.get("to")) },
      }),
    });
    signedInAs(api, ADMIN);
    const user = userEvent.setup();
    await renderWithProviders(<ConnectionsPage />);
    await screen.findByRole("table", { name: "Connections" });

    // Offered on the simulator connection only.
    expect(screen.queryByRole("button", { name: "Write as a customer on Sales phone" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Write as a customer on Official" })).toBeNull();
    await user.click(await screen.findByRole("button", { name: "Write as a customer on Demo" }));

    const dialog = await screen.findByRole("dialog", { name: "Simulated customer — Demo" });
    const number = within(dialog).getByRole("textbox", { name: "Customer's number" });
    await user.clear(number);
    await user.type(number, "5511912345678");
    await user.type(within(dialog).getByRole("textbox", { name: "Customer's message" }), "Hi, how much is it?");
    await user.click(within(dialog).getByRole("button", { name: "Send" }));

    await waitFor(() => expect(api.callsTo("POST", "/api/simulator/4/inbound")).toHaveLength(1));
    expect(api.callsTo("POST", "/api/simulator/4/inbound")[0].body).toEqual({
      from: "5511912345678",
      name: "Cliente Demo",
      body: "Hi, how much is it?",
    });
    const log = within(dialog).getByRole("log");
    const customer = await within(log).findByRole("article", { name: "Customer" });
    expect(customer).toHaveTextContent("Hi, how much is it?");
    expect(await within(log).findByRole("article", { name: "Zapdesk" })).toHaveTextContent("Welcome! Choose a queue:");
    expect(
      within(log)
        .getAllByRole("article")
        .map((a) => a.getAttribute("aria-label")),
    ).toEqual(["Customer", "Zapdesk"]);
    expect(within(dialog).getByRole("textbox", { name: "Customer's message" })).toHaveValue("");
  });

  it("is not offered to whom may not use the simulator", async () => {
    await i18n.changeLanguage("en");
    const api = fakeApi({
      "GET /api/whatsapp": { body: [aConnection({ id: 4, name: "Demo", provider: "simulator", status: "CONNECTED" })] },
    });
    signedInAs(api, AGENT);
    await renderWithProviders(<ConnectionsPage />);
    await screen.findByRole("cell", { name: "Demo" });
    expect(screen.queryByRole("button", { name: "Write as a customer on Demo" })).toBeNull();
  });
});
