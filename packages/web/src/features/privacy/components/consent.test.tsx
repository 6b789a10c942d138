import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ConsentSettings, ContactConsent as ContactConsentData } from "@zapdesk/core";
import { beforeEach, describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { ConsentPanel } from "./consent-panel";
import { ContactConsent } from "./contact-consent";

const record = (id: number, kind: ContactConsentData["records"][number]["kind"], createdAt: string) => ({
  id,
  kind,
  whatsappId: 1,
  connection: "Loja",
  queueId: null,
  queue: null,
  ticketId: 3,
  messageWid: `W${id}`,
  text: kind === "opted_out" ? "STOP" : null,
  createdAt,
});

describe("consent on the contact", () => {
  beforeEach(() => i18n.changeLanguage("en"));

  it("shows that the customer opted out, and their records newest first", async () => {
    const consent: ContactConsentData = {
      contactId: 5,
      optedOutSince: "2026-03-02T13:00:00.000Z",
      records: [record(2, "opted_out", "2026-03-02T13:00:00.000Z"), record(1, "accepted", "2026-03-01T10:00:00.000Z")],
    };
    signedInAs(fakeApi({ "GET /api/contacts/5/consent": { body: consent } }), AGENT);
    await renderWithProviders(<ContactConsent contactId={5} />);
    expect(await screen.findByRole("status")).toHaveTextContent(/Asked not to receive automatic messages/);
    const items = screen.getAllByRole("listitem").map((li) => li.textContent);
    expect(items[0]).toMatch(/^Opted out · .* · Loja$/);
    expect(items[1]).toMatch(/^Accepted/);
  });
});

describe("the consent panel", () => {
  beforeEach(() => i18n.changeLanguage("en"));

  it("saves the opt-out words and a connection's consent message", async () => {
    let settings: ConsentSettings = { optOutWords: ["SAIR", "PARAR", "STOP"], configs: [] };
    const api = fakeApi({
      "GET /api/whatsapp": { body: [{ id: 1, name: "Loja", provider: "simulator", status: "CONNECTED", isDefault: true }] },
      "GET /api/queue": { body: [] },
      "GET /api/consent/settings": () => ({ body: settings }),
      "PUT /api/consent/opt-out-words": (request) => {
        settings = { ...settings, optOutWords: (request.body as { words: string[] }).words };
        return { body: settings };
      },
      "POST /api/consent/configs": (request) => ({
        body: { id: 9, ...(request.body as object), updatedAt: new Date().toISOString() },
      }),
    });
    signedInAs(api, ADMIN);
    const user = userEvent.setup();
    await renderWithProviders(<ConsentPanel />);
    const words = await screen.findByRole("textbox", { name: "Opt-out words" });
    await waitFor(() => expect(words).toHaveValue("SAIR, PARAR, STOP"));
    await user.clear(words);
    await user.type(words, "SAIR, CHEGA");
    await user.click(screen.getAllByRole("button", { name: "Save" })[0]);
    await waitFor(() => expect(api.callsTo("PUT", "/api/consent/opt-out-words")[0]?.body).toEqual({ words: ["SAIR", "CHEGA"] }));

    await user.click(screen.getByRole("combobox", { name: "Connection or queue" }));
    await user.click(await screen.findByRole("option", { name: "Connection: Loja" }));
    await user.type(screen.getByRole("textbox", { name: "Privacy notice address" }), "https://loja.example/privacidade");
    await user.click(screen.getAllByRole("button", { name: "Save" })[1]);
    await waitFor(() => expect(api.callsTo("POST", "/api/consent/configs")).toHaveLength(1));
    expect(api.callsTo("POST", "/api/consent/configs")[0].body).toMatchObject({
      whatsappId: 1,
      queueId: null,
      enabled: true,
      privacyUrl: "https://loja.example/privacidade",
      acceptWords: ["SIM", "ACEITO", "YES", "SI", "ACEPTO"],
      message: expect.stringContaining("{{link}}"),
    });
  });
});
