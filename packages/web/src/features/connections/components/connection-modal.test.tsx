import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, type FakeRequest, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aCloudConnection, aConnection } from "../../../testing/fixtures";
import { fill, LANGUAGE_CASES, t } from "../../../testing/messages";
import { renderWithProviders } from "../../../testing/render";
import { ConnectionModal } from "./connection-modal";

const echo = (request: FakeRequest) => ({ body: aConnection({ id: 1, ...(request.body as object) }) });

async function openModal(lang: string, routes = {}, connectionId?: number) {
  await i18n.changeLanguage(lang);
  const server = fakeApi({ "POST /api/whatsapp": echo, ...routes });
  signedInAs(server, ADMIN);
  const user = userEvent.setup();
  const onSaved = vi.fn();
  await renderWithProviders(<ConnectionModal open onClose={() => {}} connectionId={connectionId} onSaved={onSaved} />);
  await screen.findByRole("dialog");
  const submit = () =>
    screen.getByRole("button", { name: t(connectionId ? "whatsappModal.buttons.okEdit" : "whatsappModal.buttons.okAdd") });
  const name = () => screen.findByLabelText(t("whatsappModal.form.name"));
  return { server, user, submit, name, onSaved };
}

const posted = (server: ReturnType<typeof fakeApi>) => server.callsTo("POST", "/api/whatsapp")[0]?.body;

describe("connection modal validation (spec §5)", () => {
  for (const c of LANGUAGE_CASES) {
    it(`shows every message in ${c.lang}`, async () => {
      const { user, submit, name } = await openModal(c.lang);
      await user.click(submit());
      expect(await screen.findByText(c.required)).toBeInTheDocument();
      await fill(user, await name(), "a");
      await user.click(submit());
      expect(await screen.findByText(c.tooShort)).toBeInTheDocument();
      await fill(user, await name(), "w".repeat(51));
      await user.click(submit());
      expect(await screen.findByText(c.tooLong)).toBeInTheDocument();
    });
  }

  it("creates a simulator connection as default, with no QR-only settings it did not touch", async () => {
    const { server, user, submit, name, onSaved } = await openModal("en");
    await fill(user, await name(), "Front desk");
    await user.click(screen.getByRole("radio", { name: "Simulator" }));
    // The simulator cannot pair by phone code: no such switch.
    expect(screen.queryByRole("switch", { name: /phone number/ })).toBeNull();
    await user.click(screen.getByRole("switch", { name: "Default" }));
    await user.click(submit());
    await waitFor(() => expect(server.callsTo("POST", "/api/whatsapp")).toHaveLength(1));
    expect(posted(server)).toEqual({
      name: "Front desk",
      provider: "simulator",
      greetingMessage: "",
      farewellMessage: "",
      isDefault: true,
      queueIds: [],
    });
    expect(await screen.findByText("WhatsApp saved successfully.")).toBeInTheDocument();
    expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ provider: "simulator" }), true);
  });

  it("translates the greeting rule error", async () => {
    const { user, submit, name } = await openModal("es", {
      "POST /api/whatsapp": { status: 400, body: { error: "ERR_WAPP_GREETING_REQUIRED" } },
    });
    await fill(user, await name(), "Recepción");
    await user.click(submit());
    expect(await screen.findByRole("alert")).toHaveTextContent("El mensaje de saludo es obligatorio cuando hay más de una cola.");
  });
});

describe("QR code connections", () => {
  it("pairs with a phone number instead, and sends pacing typed in seconds as milliseconds", async () => {
    const { server, user, submit, name } = await openModal("en");
    await fill(user, await name(), "Sales phone");
    expect(screen.getByRole("radio", { name: "QR code (WhatsApp Web)" })).toBeChecked();
    expect(screen.queryByLabelText("Phone number")).toBeNull();
    await user.click(screen.getByRole("switch", { name: "Pair with phone number instead of the QR code" }));
    await fill(user, screen.getByLabelText("Phone number"), "+55 (11) 99999-0000");
    await fill(user, screen.getByLabelText("Minimum gap"), "2,5");
    await fill(user, screen.getByLabelText("Random extra"), "0.75");
    await user.click(submit());
    await waitFor(() => expect(posted(server)).toBeDefined());
    expect(posted(server)).toMatchObject({
      provider: "baileys",
      pairingPhone: "5511999990000",
      pacing: { minGapMs: 2500, jitterMs: 750 },
    });
  });

  it("refuses a bad phone number and pacing out of range, with the reason beside each field", async () => {
    const { server, user, submit, name } = await openModal("en");
    await fill(user, await name(), "Sales phone");
    await user.click(screen.getByRole("switch", { name: "Pair with phone number instead of the QR code" }));
    await fill(user, screen.getByLabelText("Phone number"), "12ab");
    await fill(user, screen.getByLabelText("Minimum gap"), "500");
    await user.click(submit());
    expect(await screen.findByText("Invalid number")).toBeInTheDocument();
    expect(screen.getByText("A number of seconds between 0 and 120, e.g. 1.5.")).toBeInTheDocument();
    expect(server.callsTo("POST", "/api/whatsapp")).toHaveLength(0);
  });

  it("leaves pacing to the server when a new connection does not set it", async () => {
    const { server, user, submit, name } = await openModal("en");
    await fill(user, await name(), "Sales phone");
    expect(screen.getByLabelText("Minimum gap")).toHaveAttribute("placeholder", "Recommended");
    await user.click(submit());
    await waitFor(() => expect(posted(server)).toBeDefined());
    expect(posted(server)).not.toHaveProperty("pacing");
    expect(posted(server)).not.toHaveProperty("pairingPhone");
  });
});

describe("Official API (Cloud) connections", () => {
  it("asks for the ids and secrets, generates a verify token to copy, and says the webhook URL comes after saving", async () => {
    const { server, user, submit, name } = await openModal("en");
    await fill(user, await name(), "Official");
    await user.click(screen.getByRole("radio", { name: "Official API (Cloud)" }));
    expect(screen.queryByLabelText("Minimum gap")).toBeNull();
    expect(screen.getByRole("link", { name: /get started with the Cloud API/ })).toHaveAttribute(
      "href",
      "https://developers.facebook.com/docs/whatsapp/cloud-api/get-started",
    );
    expect(screen.getByText("The webhook URL appears here once the connection is saved.")).toBeInTheDocument();
    const verifyToken = screen.getByLabelText("Verify token") as HTMLInputElement;
    expect(verifyToken.value).toMatch(/^[\w-]{32}$/);
    await user.click(screen.getByRole("button", { name: "Copy Verify token" }));
    expect(await navigator.clipboard.readText()).toBe(verifyToken.value);

    await user.click(submit());
    expect(await screen.findAllByText("Required")).toHaveLength(4);
    expect(screen.getByLabelText("Access token")).toHaveAttribute("type", "password");

    await fill(user, screen.getByLabelText("Phone number ID"), "106540352242922");
    await fill(user, screen.getByLabelText("WhatsApp Business Account ID (WABA)"), "102290129340398");
    await fill(user, screen.getByLabelText("Access token"), "EAAG-token");
    await fill(user, screen.getByLabelText("App secret"), "app-secret");
    await user.click(submit());
    await waitFor(() => expect(posted(server)).toBeDefined());
    expect(posted(server)).toEqual({
      name: "Official",
      provider: "cloud",
      greetingMessage: "",
      farewellMessage: "",
      isDefault: false,
      queueIds: [],
      cloud: {
        phoneNumberId: "106540352242922",
        businessAccountId: "102290129340398",
        accessToken: "EAAG-token",
        appSecret: "app-secret",
        verifyToken: verifyToken.value,
      },
    });
  });

  it("on edit shows secrets as set, keeps them when left blank, and shows the webhook URL to copy", async () => {
    const cloud = aCloudConnection();
    const { server, user, submit } = await openModal(
      "en",
      {
        "GET /api/whatsapp/:id": { body: cloud },
        "PUT /api/whatsapp/:id": (request: FakeRequest) => ({ body: { ...cloud, ...(request.body as object) } }),
      },
      cloud.id,
    );
    await screen.findByDisplayValue("106540352242922");
    expect(screen.getByRole("radio", { name: "Official API (Cloud)" })).toBeDisabled();
    expect(screen.getByRole("radio", { name: "Official API (Cloud)" })).toBeChecked();
    expect(screen.getAllByText("Set. Leave blank to keep it.")).toHaveLength(2);
    expect(screen.getByLabelText("Access token")).toHaveValue("");
    const webhook = screen.getByLabelText("Callback URL (webhook)");
    expect(webhook).toHaveValue(`${window.location.origin}/api/webhooks/whatsapp/8`);
    await user.click(screen.getByRole("button", { name: "Copy Callback URL (webhook)" }));
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/api/webhooks/whatsapp/8`);
    expect(screen.getByLabelText("Verify token")).toHaveValue("stored-verify-token-0123456789");

    await fill(user, screen.getByLabelText("App secret"), "rotated-secret");
    await user.click(submit());
    await waitFor(() => expect(server.callsTo("PUT", "/api/whatsapp/8")).toHaveLength(1));
    const body = server.callsTo("PUT", "/api/whatsapp/8")[0].body as Record<string, unknown>;
    expect(body).not.toHaveProperty("provider");
    expect(body.cloud).toEqual({
      phoneNumberId: "106540352242922",
      businessAccountId: "102290129340398",
      verifyToken: "stored-verify-token-0123456789",
      appSecret: "rotated-secret",
    });
  });
});
