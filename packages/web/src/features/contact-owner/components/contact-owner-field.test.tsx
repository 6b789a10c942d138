import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { User, UserPresence } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { ContactOwnerField } from "./contact-owner-field";

// Issue 23 §5: who may choose a contact's owner, as the server decides (docs/contact-owner.md).
const person = (userId: number, name: string): UserPresence => ({ userId, name, status: "online", openTickets: 0, queueIds: [] });
const PEOPLE = [person(1, "Administrator"), person(2, "Agent Smith"), person(3, "Bia")];

async function renderField(as: User, ownerId: number | null) {
  const api = fakeApi({
    "GET /api/users/presence": { body: PEOPLE },
    "PUT /api/contacts/:id/owner": (request) => ({
      body: { id: 9, ownerId: (request.body as { userId: number | null }).userId },
    }),
  });
  signedInAs(api, as);
  await renderWithProviders(<ContactOwnerField contactId={9} contactName="Maria" ownerId={ownerId} dense />);
  return { api, user: userEvent.setup() };
}
const options = () => screen.getAllByRole("option").map((o) => o.textContent);

describe("the contact owner field", () => {
  it("an admin chooses anyone or nobody", async () => {
    const { api, user } = await renderField(ADMIN, null);
    await user.click(await screen.findByRole("combobox", { name: "Responsável por Maria" }));
    await waitFor(() => expect(options()).toEqual(["Sem responsável", "Administrator (eu)", "Agent Smith", "Bia"]));
    await user.click(screen.getByRole("option", { name: "Bia" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/contacts/9/owner").map((c) => c.body)).toEqual([{ userId: 3 }]));
  });

  it("an agent takes an unowned contact for themself (no one else is offered)", async () => {
    const { api, user } = await renderField(AGENT, null);
    await user.click(await screen.findByRole("combobox", { name: "Responsável por Maria" }));
    await waitFor(() => expect(options()).toEqual(["Sem responsável", "Agent Smith (eu)"]));
    await user.click(screen.getByRole("option", { name: "Agent Smith (eu)" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/contacts/9/owner").map((c) => c.body)).toEqual([{ userId: 2 }]));
  });

  it("another agent's customer shows its owner, and the agent cannot change it", async () => {
    await renderField(AGENT, 3);
    const field = await screen.findByRole("combobox", { name: "Responsável por Maria" });
    await waitFor(() => expect(field).toHaveTextContent("Bia"));
    expect(field).toHaveAttribute("aria-disabled", "true");
  });

  it("says the owner is saved even when the field's row left the list before the answer", async () => {
    // The "without an owner" list drops the row as soon as its contact has one (CI saw the toast lost).
    let answer: () => void = () => {};
    const api = fakeApi({
      "GET /api/users/presence": { body: PEOPLE },
      "PUT /api/contacts/:id/owner": () =>
        new Promise((resolve) => {
          answer = () => resolve({ body: { id: 9, ownerId: 2 } });
        }),
    });
    signedInAs(api, AGENT);
    const { rerender } = await renderWithProviders(<ContactOwnerField contactId={9} contactName="Maria" ownerId={null} dense />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("combobox", { name: "Responsável por Maria" }));
    await user.click(await screen.findByRole("option", { name: "Agent Smith (eu)" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/contacts/9/owner")).toHaveLength(1));
    rerender(null);
    answer();
    expect(await screen.findByText("Responsável salvo.")).toBeInTheDocument();
  });
});
