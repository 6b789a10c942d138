import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { fill, LANGUAGE_CASES, t } from "../../../testing/messages";
import { renderWithProviders } from "../../../testing/render";
import { ConnectionModal } from "./connection-modal";

async function openModal(lang: string, routes = {}) {
  await i18n.changeLanguage(lang);
  const server = fakeApi(routes);
  signedInAs(server, ADMIN);
  const user = userEvent.setup();
  renderWithProviders(<ConnectionModal open onClose={() => {}} />);
  await screen.findByRole("dialog");
  const submit = () => screen.getByRole("button", { name: t("whatsappModal.buttons.okAdd") });
  return { server, user, submit, name: () => screen.getByLabelText(t("whatsappModal.form.name")) };
}

describe("connection modal validation (spec §5)", () => {
  for (const c of LANGUAGE_CASES) {
    it(`shows every message in ${c.lang}`, async () => {
      const { user, submit, name } = await openModal(c.lang);
      await user.click(submit());
      expect(await screen.findByText(c.required)).toBeInTheDocument();
      await fill(user, name(), "a");
      await user.click(submit());
      expect(await screen.findByText(c.tooShort)).toBeInTheDocument();
      await fill(user, name(), "w".repeat(51));
      await user.click(submit());
      expect(await screen.findByText(c.tooLong)).toBeInTheDocument();
    });
  }

  it("creates a simulator connection as default", async () => {
    const { server, user, submit, name } = await openModal("en", {
      "POST /api/whatsapp": (req: { body: unknown }) => ({
        body: {
          id: 1,
          status: "OPENING",
          qrcode: "",
          retries: 0,
          updatedAt: "2026-01-01T00:00:00.000Z",
          queues: [],
          ...(req.body as object),
        },
      }),
    });
    await fill(user, name(), "Front desk");
    await user.click(screen.getByRole("combobox", { name: "Connection type" }));
    await user.click(await screen.findByRole("option", { name: "Simulator" }));
    await user.click(screen.getByRole("switch", { name: "Default" }));
    await user.click(submit());
    await waitFor(() => expect(server.callsTo("POST", "/api/whatsapp")).toHaveLength(1));
    expect(server.callsTo("POST", "/api/whatsapp")[0].body).toEqual({
      name: "Front desk",
      provider: "simulator",
      greetingMessage: "",
      farewellMessage: "",
      isDefault: true,
      queueIds: [],
    });
    expect(await screen.findByText("WhatsApp saved successfully.")).toBeInTheDocument();
  });

  it("translates the greeting rule error", async () => {
    const { user, submit, name } = await openModal("es", {
      "POST /api/whatsapp": { status: 400, body: { error: "ERR_WAPP_GREETING_REQUIRED" } },
    });
    await fill(user, name(), "Recepción");
    await user.click(submit());
    expect(await screen.findByRole("alert")).toHaveTextContent("El mensaje de saludo es obligatorio cuando hay más de una cola.");
  });
});
