import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { fill, LANGUAGE_CASES, t } from "../../../testing/messages";
import { renderWithProviders } from "../../../testing/render";
import { ContactModal } from "./contact-modal";

const CONTACT = {
  id: 5,
  name: "Maria",
  number: "5511999990000",
  email: "",
  profilePicUrl: "",
  isGroup: false,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

async function openModal(lang: string, routes = {}, contactId?: number, me = ADMIN) {
  await i18n.changeLanguage(lang);
  const server = fakeApi(routes);
  signedInAs(server, me);
  const user = userEvent.setup();
  await renderWithProviders(<ContactModal open contactId={contactId} onClose={() => {}} />);
  const field = (key: string) => screen.getByLabelText(t(`contactModal.form.${key}`));
  const submit = () =>
    screen.getByRole("button", { name: contactId ? t("contactModal.buttons.okEdit") : t("contactModal.buttons.okAdd") });
  await screen.findByRole("dialog");
  return { server, user, field, submit };
}

describe("contact modal validation (spec §5)", () => {
  for (const c of LANGUAGE_CASES) {
    it(`shows every message in ${c.lang}`, async () => {
      const { user, field, submit } = await openModal(c.lang);
      await user.click(submit());
      expect(await screen.findAllByText(c.required)).toHaveLength(2); // name, number

      await fill(user, field("name"), "a");
      await fill(user, field("number"), "1234");
      await fill(user, field("email"), "nope");
      await user.click(submit());
      expect(await screen.findAllByText(c.tooShort)).toHaveLength(2);
      expect(screen.getByText(c.invalidEmail)).toBeInTheDocument();

      await fill(user, field("name"), "n".repeat(51));
      await fill(user, field("number"), "9".repeat(51));
      await fill(user, field("email"), "");
      await user.click(submit());
      expect(await screen.findAllByText(c.tooLong)).toHaveLength(2);
      expect(screen.queryByText(c.invalidEmail)).not.toBeInTheDocument(); // email is optional
    });
  }
});

describe("contact modal saving", () => {
  const duplicates = [
    { lang: "pt", text: "Já existe um contato com este número." },
    { lang: "en", text: "A contact with this number already exists." },
    { lang: "es", text: "Ya existe un contacto con este número." },
  ];
  for (const { lang, text } of duplicates) {
    it(`toasts a duplicated number in ${lang}`, async () => {
      const { user, field, submit } = await openModal(lang, {
        "POST /api/contacts": { status: 409, body: { error: "ERR_DUPLICATED_CONTACT", message: "duplicate" } },
      });
      await fill(user, field("name"), "Maria");
      await fill(user, field("number"), "5511999990000");
      await user.click(submit());
      expect(await screen.findByRole("alert")).toHaveTextContent(text);
    });
  }

  it("sends the extra info list with the contact", async () => {
    const { server, user, field, submit } = await openModal("en", {
      "POST /api/contacts": (req: { body: unknown }) => ({ body: { ...CONTACT, ...(req.body as object) } }),
    });
    await fill(user, field("name"), "Maria");
    await fill(user, field("number"), "+55 (11) 99999-0000");
    await user.click(screen.getByRole("button", { name: "Add information" }));
    await user.click(screen.getByRole("button", { name: "Add information" }));
    const names = screen.getAllByLabelText("Field name");
    const values = screen.getAllByLabelText("Value");
    await fill(user, names[0], "CPF");
    await fill(user, values[0], "123");
    await fill(user, names[1], "Plan");
    await user.click(screen.getByRole("button", { name: "Remove information 2" }));
    await user.click(submit());
    await waitFor(() => expect(server.callsTo("POST", "/api/contacts")).toHaveLength(1));
    expect(server.callsTo("POST", "/api/contacts")[0].body).toEqual({
      name: "Maria",
      number: "5511999990000",
      email: "",
      extraInfo: [{ name: "CPF", value: "123" }],
    });
    expect(await screen.findByText("Contact saved successfully.")).toBeInTheDocument();
  });

  it("loads the contact with its extra info for editing", async () => {
    const { field } = await openModal(
      "en",
      { "GET /api/contacts/:id": { body: { ...CONTACT, extraInfo: [{ id: 3, name: "CPF", value: "42" }] } } },
      5,
    );
    await waitFor(() => expect(field("name")).toHaveValue("Maria"));
    expect(screen.getByLabelText("Field name")).toHaveValue("CPF");
    expect(screen.getByLabelText("Value")).toHaveValue("42");
  });
});

describe("toasts above an open dialog", () => {
  it("stay perceivable when the dialog opened while an older toast was showing", async () => {
    const { toast } = await import("../../../lib/toast");
    await i18n.changeLanguage("en");
    // The older toast's 3 s self-closing timer is taken on a clock that never runs: on a busy
    // machine the steps below take longer than that, and the toast must still be showing at the end.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    toast.success("Earlier news");
    vi.useRealTimers();
    const { user, field, submit } = await openModal("en", {
      "POST /api/contacts": { status: 409, body: { error: "ERR_DUPLICATED_CONTACT" } },
    });
    await fill(user, field("name"), "Maria");
    await fill(user, field("number"), "5511999990000");
    await user.click(submit());
    expect(await screen.findByRole("alert")).toHaveTextContent("A contact with this number already exists.");
    expect(screen.getByRole("status")).toHaveTextContent("Earlier news");
  });

  it("keeps a WhatsApp LID contact's identity: the number shows as private, is not validated and is not sent", async () => {
    const lid = { ...CONTACT, number: "184467440737095@lid" };
    const { server, user, field, submit } = await openModal(
      "en",
      {
        "GET /api/contacts/:id": { body: lid },
        "PUT /api/contacts/:id": (request: { body: unknown }) => ({ body: { ...lid, ...(request.body as object) } }),
      },
      5,
    );
    await screen.findByDisplayValue("Maria");
    expect(field("number")).toBeDisabled();
    expect(field("number")).toHaveValue("Private number");
    await fill(user, field("name"), "Maria Souza");
    await user.click(submit());
    await waitFor(() => expect(server.callsTo("PUT", "/api/contacts/5")).toHaveLength(1));
    const body = server.callsTo("PUT", "/api/contacts/5")[0].body as Record<string, unknown>;
    expect(body).toMatchObject({ name: "Maria Souza" });
    expect(body).not.toHaveProperty("number");
  });
});

describe("a saved contact's number", () => {
  const routes = {
    "GET /api/contacts/:id": { body: CONTACT },
    "PUT /api/contacts/:id": (request: { body: unknown }) => ({ body: { ...CONTACT, ...(request.body as object) } }),
  };

  it("is shown read-only to an agent, who still edits the rest, and is not sent", async () => {
    const { server, user, field, submit } = await openModal("en", routes, 5, AGENT);
    await screen.findByDisplayValue("Maria");
    expect(field("number")).toBeDisabled();
    expect(field("number")).toHaveValue("5511999990000");
    expect(screen.getByText("Only an administrator can change the number.")).toBeInTheDocument();
    await fill(user, field("name"), "Maria Souza");
    await user.click(submit());
    await waitFor(() => expect(server.callsTo("PUT", "/api/contacts/5")).toHaveLength(1));
    const body = server.callsTo("PUT", "/api/contacts/5")[0].body as Record<string, unknown>;
    expect(body).toMatchObject({ name: "Maria Souza" });
    expect(body).not.toHaveProperty("number");
  });

  it("stays editable for an admin", async () => {
    const { server, user, field, submit } = await openModal("en", routes, 5, ADMIN);
    await screen.findByDisplayValue("Maria");
    expect(field("number")).toBeEnabled();
    await fill(user, field("number"), "5511888880000");
    await user.click(submit());
    await waitFor(() => expect(server.callsTo("PUT", "/api/contacts/5")).toHaveLength(1));
    expect(server.callsTo("PUT", "/api/contacts/5")[0].body).toMatchObject({ number: "5511888880000" });
  });
});
