import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { User } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { fill, LANGUAGE_CASES, t } from "../../../testing/messages";
import { renderWithProviders } from "../../../testing/render";
import { UserModal } from "./user-modal";

async function openModal(me: User, editing: User | null, routes = {}) {
  const server = fakeApi({
    "GET /api/queue": { body: [{ id: 7, name: "Sales", color: "#B80000", greetingMessage: "" }] },
    ...routes,
  });
  signedInAs(server, me);
  const user = userEvent.setup();
  await renderWithProviders(<UserModal open user={editing} onClose={() => {}} />);
  // The modal adapts to the signed-in user: wait until the session is restored.
  await waitFor(() => expect(server.callsTo("POST", "/api/auth/refresh_token")).toHaveLength(1));
  const field = (key: string) => screen.getByLabelText(t(`userModal.form.${key}`));
  const submit = () =>
    screen.getByRole("button", { name: editing ? t("userModal.buttons.okEdit") : t("userModal.buttons.okAdd") });
  return { server, user, field, submit };
}

describe("user modal validation (spec §5)", () => {
  for (const c of LANGUAGE_CASES) {
    it(`shows every message in ${c.lang}`, async () => {
      await i18n.changeLanguage(c.lang);
      const { user, field, submit } = await openModal(ADMIN, null);

      await user.click(submit());
      // A new user needs a password (they could not sign in without one): "Required", not "Too Short!".
      expect(await screen.findAllByText(c.required)).toHaveLength(3); // name, email, password
      expect(screen.queryByText(c.tooShort)).not.toBeInTheDocument();

      await fill(user, field("name"), "a");
      await fill(user, field("email"), "nope");
      await fill(user, field("password"), "123");
      await user.click(submit());
      expect(await screen.findAllByText(c.tooShort)).toHaveLength(2);
      expect(screen.getByText(c.invalidEmail)).toBeInTheDocument();

      await fill(user, field("name"), "x".repeat(51));
      await fill(user, field("password"), "y".repeat(51));
      await user.click(submit());
      expect(await screen.findAllByText(c.tooLong)).toHaveLength(2);
    });
  }
});

describe("user modal permissions (spec §6)", () => {
  it("lets an admin choose profile and queues and sends them", async () => {
    await i18n.changeLanguage("en");
    const { server, user, field, submit } = await openModal(ADMIN, null, {
      "POST /api/users": (req: { body: unknown }) => ({ body: { ...AGENT, id: 9, ...(req.body as object), queues: [] } }),
    });
    await fill(user, field("name"), "New Agent");
    await fill(user, field("email"), "new@zapdesk.local");
    await fill(user, field("password"), "secret1");
    await user.click(screen.getByRole("combobox", { name: "Profile" }));
    await user.click(await screen.findByRole("option", { name: "Admin" }));
    await user.click(screen.getByRole("combobox", { name: "Queues" }));
    await user.click(await screen.findByRole("option", { name: "Sales" }));
    await user.keyboard("{Escape}");
    await user.click(submit());
    await waitFor(() => expect(server.callsTo("POST", "/api/users")).toHaveLength(1));
    expect(server.callsTo("POST", "/api/users")[0].body).toEqual({
      name: "New Agent",
      email: "new@zapdesk.local",
      password: "secret1",
      profile: "admin",
      queueIds: [7],
    });
    expect(await screen.findByText("User saved successfully.")).toBeInTheDocument();
  });

  it("hides profile and queues from an agent editing himself, and does not send them", async () => {
    await i18n.changeLanguage("en");
    const { server, user, field, submit } = await openModal(AGENT, AGENT, {
      "PUT /api/users/:id": (req: { body: unknown }) => ({ body: { ...AGENT, ...(req.body as object) } }),
    });
    expect(screen.queryByRole("combobox", { name: "Profile" })).not.toBeInTheDocument();
    expect(screen.queryByRole("combobox", { name: "Queues" })).not.toBeInTheDocument();
    await fill(user, field("name"), "Agent Renamed");
    await user.click(submit());
    await waitFor(() => expect(server.callsTo("PUT", "/api/users/2")).toHaveLength(1));
    expect(server.callsTo("PUT", "/api/users/2")[0].body).toEqual({ name: "Agent Renamed", email: AGENT.email, password: "" });
  });

  it("shows a server field error next to its field", async () => {
    await i18n.changeLanguage("en");
    const { user, field, submit } = await openModal(ADMIN, null, {
      "POST /api/users": {
        status: 400,
        body: { error: "ERR_VALIDATION", details: [{ path: ["email"], message: "An user with this email already exists" }] },
      },
    });
    await fill(user, field("name"), "Someone");
    await fill(user, field("email"), "admin@zapdesk.local");
    await fill(user, field("password"), "secret1");
    await user.click(submit());
    expect(await screen.findByText("An user with this email already exists")).toBeInTheDocument();
  });
});
