import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { RetentionPolicy } from "@zapdesk/core";
import { beforeEach, describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, type FakeRequest, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { RetentionPanel } from "./retention-panel";

const QUEUES = [{ id: 7, name: "Vendas", color: "#B80000", greetingMessage: "" }];

describe("the retention panel", () => {
  beforeEach(() => i18n.changeLanguage("en"));

  it("previews a default policy before saving it, puts a queue on its own policy and back, and runs the sweep", async () => {
    let policies: RetentionPolicy[] = [];
    const api = fakeApi({
      "GET /api/queue": { body: QUEUES },
      "GET /api/retention": () => ({ body: { policies, lastRun: null } }),
      "POST /api/retention/preview": { body: { tickets: 12, messages: 340, files: 25 } },
      "PUT /api/retention/policies": (request: FakeRequest) => {
        const saved = request.body as RetentionPolicy;
        policies = [...policies.filter((p) => p.queueId !== saved.queueId), saved];
        return { body: saved };
      },
      "DELETE /api/retention/policies/7": () => {
        policies = policies.filter((p) => p.queueId !== 7);
        return { body: { message: "Policy removed" } };
      },
      "POST /api/retention/run": { body: { tickets: 3, messages: 20, files: 4 } },
    });
    signedInAs(api, ADMIN);
    const user = userEvent.setup();
    await renderWithProviders(<RetentionPanel />);
    expect(await screen.findByText("No policy: everything is kept.")).toBeInTheDocument();
    expect(screen.getByText("No sweep has removed anything yet.")).toBeInTheDocument();
    // Nothing to preview while everything is kept.
    expect(screen.getByRole("button", { name: "Preview" })).toBeDisabled();

    await user.click(screen.getByRole("combobox", { name: "Policy" }));
    await user.click(await screen.findByRole("option", { name: "Remove after a time" }));
    const days = screen.getByRole("spinbutton", { name: "Days after the close" });
    await user.clear(days);
    await user.type(days, "0");
    expect(screen.getByText("From 1 to 3650 days")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
    await user.clear(days);
    await user.type(days, "90");
    await user.click(screen.getByRole("combobox", { name: "Remove" }));
    await user.click(await screen.findByRole("option", { name: "Messages and their media" }));
    await user.click(screen.getByRole("button", { name: "Preview" }));
    expect(
      await screen.findByText("If it ran today it would remove 25 files and 340 messages of 12 tickets."),
    ).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/retention/preview")[0].body).toEqual({
      queueId: null,
      enabled: true,
      days: 90,
      remove: "messages",
    });
    expect(api.callsTo("PUT", "/api/retention/policies")).toHaveLength(0);
    await user.click(screen.getByRole("button", { name: "Save" }));
    const current = await screen.findByRole("list", { name: "Policies in force" });
    expect(await within(current).findByText("Messages and media removed 90 days after the close")).toBeInTheDocument();

    // A queue kept forever, then back to the default.
    await user.click(screen.getByRole("combobox", { name: "Applies to" }));
    await user.click(await screen.findByRole("option", { name: "Vendas" }));
    expect(screen.getByRole("combobox", { name: "Policy" })).toHaveTextContent("Follow the default");
    await user.click(screen.getByRole("combobox", { name: "Policy" }));
    await user.click(await screen.findByRole("option", { name: "Keep forever" }));
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(within(current).getByText("Kept forever")).toBeInTheDocument());
    expect(api.callsTo("PUT", "/api/retention/policies")[1].body).toMatchObject({ queueId: 7, enabled: false });
    await user.click(screen.getByRole("combobox", { name: "Policy" }));
    await user.click(await screen.findByRole("option", { name: "Follow the default" }));
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(within(current).queryByText("Kept forever")).not.toBeInTheDocument());

    await user.click(screen.getByRole("button", { name: "Run the sweep now" }));
    await waitFor(() => expect(api.callsTo("POST", "/api/retention/run")).toHaveLength(1));
  });

  it("offers to anonymise the contact, warns that it is irreversible, and previews how many contacts", async () => {
    let policies: RetentionPolicy[] = [];
    const api = fakeApi({
      "GET /api/queue": { body: QUEUES },
      "GET /api/retention": () => ({
        body: { policies, lastRun: { at: "2026-03-04T12:00:00.000Z", tickets: 2, messages: 9, files: 1, contacts: 1 } },
      }),
      "POST /api/retention/preview": { body: { tickets: 4, messages: 30, files: 2, contacts: 0 } },
      "PUT /api/retention/policies": (request: FakeRequest) => {
        policies = [request.body as RetentionPolicy];
        return { body: request.body };
      },
    });
    signedInAs(api, ADMIN);
    const user = userEvent.setup();
    await renderWithProviders(<RetentionPanel />);
    expect(await screen.findByText(/1 files and 9 messages of 2 tickets; 1 contacts anonymised\./)).toBeInTheDocument();
    await user.click(screen.getByRole("combobox", { name: "Policy" }));
    await user.click(await screen.findByRole("option", { name: "Remove after a time" }));
    expect(screen.queryByText(/Anonymising is irreversible/)).not.toBeInTheDocument();
    await user.click(screen.getByRole("combobox", { name: "Remove" }));
    await user.click(await screen.findByRole("option", { name: "Messages and media, then anonymise the contact" }));
    expect(screen.getByText(/Anonymising is irreversible/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Preview" }));
    // Zero contacts is said too: the admin chose to anonymise and learns none would be today.
    expect(
      await screen.findByText("If it ran today it would remove 2 files and 30 messages of 4 tickets; 0 contacts anonymised."),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/retention/policies")[0]?.body).toMatchObject({ remove: "anonymise" }));
    const current = await screen.findByRole("list", { name: "Policies in force" });
    expect(
      await within(current).findByText(
        "Messages and media removed 365 days after the close; the contact anonymised once nothing else refers to it",
      ),
    ).toBeInTheDocument();
  });

  it("in Portuguese", async () => {
    await i18n.changeLanguage("pt");
    signedInAs(
      fakeApi({ "GET /api/queue": { body: [] }, "GET /api/retention": { body: { policies: [], lastRun: null } } }),
      ADMIN,
    );
    await renderWithProviders(<RetentionPanel />);
    expect(await screen.findByText("Nenhuma política: tudo é guardado.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Rodar a limpeza agora" })).toBeInTheDocument();
  });
});
