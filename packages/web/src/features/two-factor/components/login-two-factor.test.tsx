import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, type FakeRequest, fakeApi } from "../../../testing/fake-api";
import { fill } from "../../../testing/messages";
import { renderApp } from "../../../testing/render";

// Issue 22 §5: the login page's second step, against the app's real API client over a fake server.
const CHALLENGE = { challenge: "challenge-token", expiresAt: "2026-12-01T10:10:00.000Z" };

async function signIn(
  user: ReturnType<typeof userEvent.setup>,
  labels = { email: "Email", password: "Password", enter: "Enter" },
) {
  await fill(user, await screen.findByLabelText(labels.email), "admin@zapdesk.local");
  await fill(user, screen.getByLabelText(labels.password), "admin123");
  await user.click(screen.getByRole("button", { name: labels.enter }));
}

describe("login, second step", () => {
  it("asks for the code after the password; a wrong one stays on the step with the reason, the right one signs in", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({
      "POST /api/auth/login": { body: { twoFactor: "verify", ...CHALLENGE } },
      "POST /api/auth/login/two-factor": ({ body }: FakeRequest) =>
        (body as { code: string }).code === "123456"
          ? { body: { token: "tok", user: ADMIN } }
          : { status: 400, body: { error: "ERR_TOTP_INVALID" } },
    });
    const user = userEvent.setup();
    const { router } = await renderApp("/login");
    await signIn(user);

    expect(await screen.findByRole("heading", { name: "Two-factor sign-in" })).toBeInTheDocument();
    expect(localStorage.getItem("token")).toBeNull();
    const code = await screen.findByLabelText("Code from the app or recovery code");
    await fill(user, code, "000000");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText(/This code is not valid or was already used/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");

    await fill(user, code, "123456");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("Login successfully!")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(localStorage.getItem("token")).toBe("tok");
    expect(server.callsTo("POST", "/api/auth/login/two-factor").map((c) => c.body)).toEqual([
      { challenge: "challenge-token", code: "000000" },
      { challenge: "challenge-token", code: "123456" },
    ]);
  });

  it("goes back to email and password when the challenge expired", async () => {
    await i18n.changeLanguage("pt");
    fakeApi({
      "POST /api/auth/login": { body: { twoFactor: "verify", ...CHALLENGE } },
      "POST /api/auth/login/two-factor": { status: 401, body: { error: "ERR_TOTP_CHALLENGE_EXPIRED" } },
    });
    const user = userEvent.setup();
    await renderApp("/login");
    await signIn(user, { email: "Email", password: "Senha", enter: "Entrar" });
    await fill(user, await screen.findByLabelText("Código do aplicativo ou de recuperação"), "654321");
    await user.click(screen.getByRole("button", { name: "Verificar" }));
    expect(await screen.findByText("O acesso demorou demais: digite o email e a senha de novo.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Voltar para email e senha" }));
    expect(await screen.findByLabelText("Senha")).toHaveValue("");
    expect(screen.getByLabelText("Email")).toHaveValue("admin@zapdesk.local");
  });

  it("leads a user who must enrol through the QR code and the recovery codes before the session starts", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({
      "POST /api/auth/login": { body: { twoFactor: "enrol", ...CHALLENGE } },
      "POST /api/auth/login/two-factor/enrol": {
        body: { secret: "JBSWY3DPEHPK3PXP", otpauthUri: "otpauth://totp/Zapdesk:admin?secret=JBSWY3DPEHPK3PXP&issuer=Zapdesk" },
      },
      "POST /api/auth/login/two-factor/confirm": {
        body: { token: "tok", user: ADMIN, recoveryCodes: ["aaaaa-bbbbb", "ccccc-ddddd"] },
      },
    });
    const user = userEvent.setup();
    const { router } = await renderApp("/login");
    await signIn(user);

    expect(await screen.findByRole("heading", { name: "Set up two-factor sign-in" })).toBeInTheDocument();
    expect(await screen.findByRole("img", { name: "QR code for the authenticator app" })).toBeInTheDocument();
    expect(screen.getByLabelText("Secret key")).toHaveValue("JBSWY3DPEHPK3PXP");
    await fill(user, screen.getByLabelText("Code from the app"), "123456");
    await user.click(screen.getByRole("button", { name: "Confirm" }));

    const list = await screen.findByRole("list", { name: "Recovery codes" });
    expect(list).toHaveTextContent("aaaaa-bbbbb");
    expect(list).toHaveTextContent("ccccc-ddddd");
    // No session until the codes were seen.
    expect(localStorage.getItem("token")).toBeNull();
    await user.click(screen.getByRole("button", { name: "I have saved them" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(localStorage.getItem("token")).toBe("tok");
    expect(server.callsTo("POST", "/api/auth/login/two-factor/confirm")[0].body).toEqual({
      challenge: "challenge-token",
      code: "123456",
    });
  });
});
