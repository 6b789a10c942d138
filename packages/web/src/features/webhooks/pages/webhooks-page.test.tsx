import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Webhook, WebhookDelivery } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderApp } from "../../../testing/render";

const SECRET = "whsec_abcdefghijklmnopqrstuvwxyz012345";
const at = "2026-03-02T12:00:00.000Z";
const existing: Webhook = {
  id: 1,
  url: "https://crm.example.com/hook",
  events: ["ticket.closed"],
  enabled: true,
  secretHint: "wxyz",
  lastDelivery: { status: "failed", responseStatus: 500, at },
  createdAt: at,
  updatedAt: at,
};
const failed: WebhookDelivery = {
  id: 7,
  webhookId: 1,
  event: "ticket.closed",
  status: "failed",
  attempt: 31,
  responseStatus: 500,
  latencyMs: 42,
  responseSnippet: "upstream down",
  error: "HTTP 500",
  lastAttemptAt: at,
  nextAttemptAt: null,
  createdAt: at,
};

async function openWebhooks() {
  await i18n.changeLanguage("en");
  const list = [existing];
  const server = fakeApi({
    "GET /api/webhooks": () => ({ body: { webhooks: list } }),
    "POST /api/webhooks": (req) => {
      const input = req.body as { url: string; events: Webhook["events"]; enabled: boolean };
      const created = { ...existing, id: 2, ...input, secretHint: SECRET.slice(-4), lastDelivery: null };
      list.push(created);
      return { body: { ...created, secret: SECRET } };
    },
    "GET /api/webhooks/:id/deliveries": { body: { deliveries: [failed], count: 1, hasMore: false } },
    "POST /api/webhooks/deliveries/:id/resend": { body: { ...failed, status: "pending" } },
    "POST /api/webhooks/:id/rotate-secret": { body: { id: 1, secret: `${SECRET}-new`, secretHint: "-new" } },
  });
  signedInAs(server, ADMIN);
  const user = userEvent.setup();
  await renderApp("/webhooks");
  await screen.findByRole("heading", { name: "Webhooks" });
  return { server, user };
}

describe("webhooks page", () => {
  it("creates a webhook with its events and shows the secret once", async () => {
    const { server, user } = await openWebhooks();
    expect(await screen.findByText("https://crm.example.com/hook")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add webhook" }));
    const dialog = await screen.findByRole("dialog", { name: "Add webhook" });
    await user.type(within(dialog).getByRole("textbox", { name: "URL" }), "https://hooks.example.org/in");
    await user.click(within(dialog).getByRole("button", { name: "Add" }));
    expect(await within(dialog).findByText("Choose at least one event.")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("checkbox", { name: /Message created/ }));
    await user.click(within(dialog).getByRole("checkbox", { name: /Contact created/ }));
    await user.click(within(dialog).getByRole("button", { name: "Add" }));
    await waitFor(() => expect(server.callsTo("POST", "/api/webhooks")).toHaveLength(1));
    expect(server.callsTo("POST", "/api/webhooks")[0].body).toEqual({
      url: "https://hooks.example.org/in",
      events: ["message.created", "contact.created"],
      enabled: true,
    });
    const secretDialog = await screen.findByRole("dialog", { name: "Signing secret" });
    expect(within(secretDialog).getByRole("textbox", { name: "Secret" })).toHaveValue(SECRET);
    await user.click(within(secretDialog).getByRole("button", { name: "I copied it" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Signing secret" })).not.toBeInTheDocument());
    expect(await screen.findByText("https://hooks.example.org/in")).toBeInTheDocument();
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
    expect(screen.getByText(`…${SECRET.slice(-4)}`)).toBeInTheDocument();
  });

  it("lists a webhook's deliveries and resends a failed one", async () => {
    const { server, user } = await openWebhooks();
    await user.click(await screen.findByRole("button", { name: "Deliveries of https://crm.example.com/hook" }));
    const dialog = await screen.findByRole("dialog", { name: /Deliveries/ });
    const row = (await within(dialog).findByText("upstream down")).closest("tr") as HTMLElement;
    expect(row).toHaveTextContent("Failed");
    expect(row).toHaveTextContent("500");
    expect(row).toHaveTextContent("42 ms");
    expect(row).toHaveTextContent("HTTP 500");
    await user.click(within(row).getByRole("button", { name: "Resend" }));
    await waitFor(() => expect(server.callsTo("POST", "/api/webhooks/deliveries/7/resend")).toHaveLength(1));
    expect(await screen.findByText("Delivery queued again.")).toBeInTheDocument();
  });

  it("asks first, then shows a rotated secret once", async () => {
    const { server, user } = await openWebhooks();
    await user.click(await screen.findByRole("button", { name: "New secret for https://crm.example.com/hook" }));
    const confirm = await screen.findByRole("dialog", { name: "Create a new secret?" });
    expect(server.callsTo("POST", "/api/webhooks/1/rotate-secret")).toHaveLength(0);
    await user.click(within(confirm).getByRole("button", { name: "Ok" }));
    const secretDialog = await screen.findByRole("dialog", { name: "Signing secret" });
    expect(within(secretDialog).getByRole("textbox", { name: "Secret" })).toHaveValue(`${SECRET}-new`);
    expect(server.callsTo("POST", "/api/webhooks/1/rotate-secret")).toHaveLength(1);
  });
});
