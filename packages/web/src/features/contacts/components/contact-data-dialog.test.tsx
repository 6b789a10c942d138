import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { ContactDataDialog } from "./contact-data-dialog";

const contact = { id: 7, name: "Maria Souza", number: "5511987654321" };
const counts = {
  tickets: 2,
  activeTickets: 1,
  messages: 14,
  notes: 1,
  groupMessages: 0,
  mediaFiles: 3,
  scheduledMessages: 0,
  ratings: 1,
};

describe("contact data dialog", () => {
  it("shows what an erasure removes and erases only once the name or number is typed", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({
      "GET /api/contacts/:id/data/summary": () => ({ body: counts }),
      "POST /api/contacts/:id/data/erase": () => ({ body: { erased: { ...counts }, filesNotRemoved: 0 } }),
    });
    signedInAs(server, ADMIN);
    let closed = false;
    await renderWithProviders(<ContactDataDialog contact={contact} onClose={() => (closed = true)} />);
    const dialog = await screen.findByRole("dialog", { name: "Data of Maria Souza" });
    expect(await within(dialog).findByRole("status", { name: "What will be erased" })).toHaveTextContent(
      "2 conversations, 14 messages (1 internal notes, 0 in groups), 3 files",
    );
    expect(within(dialog).getByText(/1 of these conversations are still open or pending/)).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Download data" })).toBeEnabled();
    const erase = within(dialog).getByRole("button", { name: "Erase for good" });
    expect(erase).toBeDisabled();

    const user = userEvent.setup();
    const field = within(dialog).getByRole("textbox");
    await user.type(field, "Maria");
    expect(erase).toBeDisabled();
    await user.clear(field);
    await user.type(field, "+55 (11) 98765-4321");
    expect(erase).toBeEnabled();
    await user.click(erase);
    await waitFor(() => expect(server.callsTo("POST", "/api/contacts/7/data/erase")).toHaveLength(1));
    expect(server.callsTo("POST", "/api/contacts/7/data/erase")[0].body).toEqual({ confirm: "+55 (11) 98765-4321" });
    await waitFor(() => expect(closed).toBe(true));
  });

  it("says the data was erased even when the dialog left the screen before the answer", async () => {
    // From a ticket's contact drawer: the ticket's deletion arrives by realtime first and unmounts it.
    await i18n.changeLanguage("en");
    let answer: () => void = () => {};
    const server = fakeApi({
      "GET /api/contacts/:id/data/summary": () => ({ body: counts }),
      "POST /api/contacts/:id/data/erase": () =>
        new Promise((resolve) => {
          answer = () => resolve({ body: { erased: { ...counts }, filesNotRemoved: 0 } });
        }),
    });
    signedInAs(server, ADMIN);
    const { rerender } = await renderWithProviders(<ContactDataDialog contact={contact} onClose={() => {}} />);
    const dialog = await screen.findByRole("dialog", { name: "Data of Maria Souza" });
    const user = userEvent.setup();
    await user.type(within(dialog).getByRole("textbox"), "Maria Souza");
    await user.click(within(dialog).getByRole("button", { name: "Erase for good" }));
    await waitFor(() => expect(server.callsTo("POST", "/api/contacts/7/data/erase")).toHaveLength(1));
    rerender(null);
    answer();
    expect(await screen.findByText(i18n.t("contactData.erased"))).toBeInTheDocument();
  });

  it("offers nothing of it to an agent", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({});
    signedInAs(server, AGENT);
    await renderWithProviders(<ContactDataDialog contact={contact} onClose={() => {}} />);
    const dialog = await screen.findByRole("dialog", { name: "Data of Maria Souza" });
    expect(within(dialog).queryByRole("button", { name: "Download data" })).toBeNull();
    expect(within(dialog).queryByRole("button", { name: "Erase for good" })).toBeNull();
    expect(server.callsTo("GET", "/api/contacts/7/data/summary")).toHaveLength(0);
  });
});
