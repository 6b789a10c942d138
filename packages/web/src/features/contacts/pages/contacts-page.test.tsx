import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { DEBOUNCE_MS } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aCloudConnection, aConnection } from "../../../testing/fixtures";
import { renderApp } from "../../../testing/render";

const maria = {
  id: 5,
  name: "Maria",
  number: "5511999990000",
  email: "maria@example.com",
  profilePicUrl: "",
  isGroup: false,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};
const LIST = { body: { contacts: [maria], count: 1, hasMore: false } };

describe("contacts page", () => {
  it("starts an open ticket assigned to oneself and opens it", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({ "GET /api/contacts": LIST, "POST /api/tickets": { body: { id: 77 } } });
    signedInAs(server, AGENT);
    const user = userEvent.setup();
    const { router } = await renderApp("/contacts");
    await user.click(await screen.findByRole("button", { name: "Start ticket with Maria" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/tickets/77"));
    expect(server.callsTo("POST", "/api/tickets")[0].body).toEqual({ contactId: 5, userId: AGENT.id, status: "open" });
  });

  it("translates an already open ticket", async () => {
    await i18n.changeLanguage("pt");
    const server = fakeApi({
      "GET /api/contacts": LIST,
      "POST /api/tickets": { status: 409, body: { error: "ERR_OTHER_OPEN_TICKET" } },
    });
    signedInAs(server, AGENT);
    const user = userEvent.setup();
    await renderApp("/contacts");
    await user.click(await screen.findByRole("button", { name: "Iniciar ticket com Maria" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Já existe um ticket aberto para este contato.");
  });

  it("offers delete and import to admins only", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({ "GET /api/contacts": LIST });
    signedInAs(server, AGENT);
    await renderApp("/contacts");
    expect(await screen.findByRole("button", { name: "Edit Maria" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Delete Maria" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Import contacts" })).not.toBeInTheDocument();
  });

  it("imports the phone's contacts with a progress bar, then reloads the list", async () => {
    await i18n.changeLanguage("en");
    let release: () => void = () => {};
    const server = fakeApi({
      "GET /api/contacts": LIST,
      "GET /api/whatsapp": { body: [aConnection({ provider: "baileys", isDefault: true })] },
      "POST /api/contacts/import": () => new Promise((resolve) => (release = () => resolve({ body: { imported: 1, total: 3 } }))),
    });
    signedInAs(server, ADMIN);
    const user = userEvent.setup();
    await renderApp("/contacts");
    await user.click(await screen.findByRole("button", { name: "Import contacts" }));
    await user.click(await screen.findByRole("button", { name: "Ok" }));
    expect(await screen.findByRole("progressbar", { name: "Importing contacts from the phone…" })).toBeInTheDocument();
    release();
    expect(await screen.findByText("1 of 3 contacts imported.")).toBeInTheDocument();
    await waitFor(() => expect(server.callsTo("GET", "/api/contacts").length).toBeGreaterThan(1));
  });

  it("offers no import when the default connection cannot import phone contacts (Cloud API)", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({
      "GET /api/contacts": LIST,
      "GET /api/whatsapp": { body: [aCloudConnection({ isDefault: true }), aConnection({ id: 4, isDefault: false })] },
    });
    signedInAs(server, ADMIN);
    await renderApp("/contacts");
    expect(await screen.findByRole("button", { name: "Delete Maria" })).toBeInTheDocument();
    await waitFor(() => expect(server.callsTo("GET", "/api/whatsapp").length).toBeGreaterThan(0));
    expect(screen.queryByRole("button", { name: "Import contacts" })).not.toBeInTheDocument();
  });

  it("shows profile pictures only where a connection fetches them, and a LID contact's number as private", async () => {
    await i18n.changeLanguage("en");
    const pictured = { ...maria, profilePicUrl: "https://pps.whatsapp.net/maria.jpg" };
    const lid = { ...maria, id: 6, name: "Lia", number: "184467440737095@lid" };
    const server = fakeApi({
      "GET /api/contacts": { body: { contacts: [pictured, lid], count: 2, hasMore: false } },
      "GET /api/whatsapp": { body: [aCloudConnection({ isDefault: true })] },
    });
    signedInAs(server, ADMIN);
    const view = await renderApp("/contacts");
    const row = (await screen.findByRole("cell", { name: "Lia" })).closest("tr") as HTMLElement;
    expect(row).toHaveTextContent("Private number");
    expect(row).not.toHaveTextContent("184467440737095");
    await waitFor(() => expect(server.callsTo("GET", "/api/whatsapp").length).toBeGreaterThan(0));
    expect(view.container.querySelector('img[src="https://pps.whatsapp.net/maria.jpg"]')).toBeNull();

    server.set("GET /api/whatsapp", { body: [aConnection({ provider: "baileys" })] });
    view.unmount();
    await renderApp("/contacts");
    await screen.findByRole("cell", { name: "Lia" });
    await waitFor(() => expect(document.querySelector('img[src="https://pps.whatsapp.net/maria.jpg"]')).not.toBeNull());
  });

  it("searches from the second character: one alone says so and keeps the whole list (issue 19)", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({ "GET /api/contacts": LIST });
    signedInAs(server, AGENT);
    const user = userEvent.setup();
    await renderApp("/contacts");
    await screen.findByRole("button", { name: "Edit Maria" });
    await user.type(screen.getByRole("searchbox", { name: "Search" }), "m");
    expect(await screen.findByText("Type at least 2 characters to search.")).toBeInTheDocument();
    // Past the debounce: an "m" search would have been sent by now.
    await new Promise((r) => setTimeout(r, DEBOUNCE_MS + 200));
    const searched = () => server.callsTo("GET", "/api/contacts").map((call) => call.query.get("searchParam") ?? "");
    expect(searched()).not.toContain("m");
    await user.type(screen.getByRole("searchbox", { name: "Search" }), "a");
    await waitFor(() => expect(searched()).toContain("ma"));
    expect(screen.queryByText("Type at least 2 characters to search.")).not.toBeInTheDocument();
  });

  it("lets an admin merge a duplicate into the contact that stays (issue 18); agents are not offered it", async () => {
    await i18n.changeLanguage("en");
    const rita = { ...maria, id: 6, name: "Rita", number: "553188887777" };
    const twin = { ...maria, id: 7, name: "Rita 2", number: "5531988887777" };
    const server = fakeApi({
      "GET /api/contacts": { body: { contacts: [rita, twin], count: 2, hasMore: false } },
      "POST /api/contacts/:id/merge": { body: rita },
    });
    signedInAs(server, ADMIN);
    const user = userEvent.setup();
    await renderApp("/contacts");
    await user.click(await screen.findByRole("button", { name: "Merge Rita 2 into another contact" }));
    const dialog = await screen.findByRole("dialog", { name: "Merge Rita 2 into another contact" });
    await user.type(within(dialog).getByRole("combobox", { name: "Contact that stays" }), "rita");
    await user.click(await screen.findByRole("option", { name: "Rita (553188887777)" }));
    expect(within(dialog).getByRole("status")).toHaveTextContent("Rita 2 (5531988887777) will be removed");
    await user.click(within(dialog).getByRole("button", { name: "Merge" }));
    await waitFor(() => expect(server.callsTo("POST", "/api/contacts/6/merge")).toHaveLength(1));
    expect(server.callsTo("POST", "/api/contacts/6/merge")[0].body).toEqual({ duplicateId: 7 });
    expect(await screen.findByText("Merged into Rita.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("cell", { name: "Rita 2" })).not.toBeInTheDocument());
  });

  it("shows a username customer (no shared number) by their @username, never the user id", async () => {
    await i18n.changeLanguage("en");
    const bruna = { ...maria, id: 8, name: "Bruna", number: "BR.1502576394655843", username: "bruna.s" };
    const server = fakeApi({ "GET /api/contacts": { body: { contacts: [bruna], count: 1, hasMore: false } } });
    signedInAs(server, AGENT);
    await renderApp("/contacts");
    const row = (await screen.findByRole("cell", { name: "Bruna" })).closest("tr") as HTMLElement;
    expect(row).toHaveTextContent("@bruna.s");
    expect(row).not.toHaveTextContent("BR.1502576394655843");
    expect(screen.queryByRole("button", { name: "Merge Bruna into another contact" })).not.toBeInTheDocument();
  });
});
