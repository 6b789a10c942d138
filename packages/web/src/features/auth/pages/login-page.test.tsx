import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, fakeApi } from "../../../testing/fake-api";
import { fill, LANGUAGE_CASES, t } from "../../../testing/messages";
import { renderApp } from "../../../testing/render";

describe("login page", () => {
  for (const c of LANGUAGE_CASES) {
    it(`requires email and password (${c.lang})`, async () => {
      await i18n.changeLanguage(c.lang);
      fakeApi();
      const user = userEvent.setup();
      await renderApp("/login");
      await user.click(await screen.findByRole("button", { name: t("login.buttons.submit") }));
      expect(await screen.findAllByText(c.required)).toHaveLength(2);
    });
  }

  it("logs in, greets with a toast and goes to the dashboard", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({ "POST /api/auth/login": { body: { token: "tok", user: ADMIN } } });
    const user = userEvent.setup();
    const { router } = await renderApp("/login");
    await fill(user, await screen.findByLabelText("Email"), "admin@zapdesk.local");
    await fill(user, screen.getByLabelText("Password"), "admin123");
    await user.click(screen.getByRole("button", { name: "Enter" }));
    expect(await screen.findByText("Login successfully!")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(server.callsTo("POST", "/api/auth/login")[0].body).toEqual({ email: "admin@zapdesk.local", password: "admin123" });
    expect(localStorage.getItem("token")).toBe("tok");
  });

  it("shows the translated credentials error and stays on /login", async () => {
    await i18n.changeLanguage("es");
    fakeApi({
      "POST /api/auth/login": { status: 401, body: { error: "ERR_INVALID_CREDENTIALS", message: "Invalid credentials" } },
    });
    const user = userEvent.setup();
    const { router } = await renderApp("/login");
    await fill(user, await screen.findByLabelText("Correo"), "x@y.z");
    await fill(user, screen.getByLabelText("Contraseña"), "nope");
    await user.click(screen.getByRole("button", { name: "Ingresar" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Error de autenticación. Por favor, inténtalo de nuevo.");
    expect(router.state.location.pathname).toBe("/login");
  });

  it("toggles the password between hidden and shown", async () => {
    await i18n.changeLanguage("en");
    fakeApi();
    const user = userEvent.setup();
    await renderApp("/login");
    const password = await screen.findByLabelText("Password");
    expect(password).toHaveAttribute("type", "password");
    await user.click(screen.getByRole("button", { name: "Show password" }));
    expect(password).toHaveAttribute("type", "text");
    await user.click(screen.getByRole("button", { name: "Hide password" }));
    expect(password).toHaveAttribute("type", "password");
  });

  it("shows the current year in the footer", async () => {
    fakeApi();
    await renderApp("/login");
    expect(await screen.findByText(new RegExp(`© ${new Date().getFullYear()}`))).toBeInTheDocument();
  });

  it("offers signup only while userCreation is enabled", async () => {
    await i18n.changeLanguage("en");
    fakeApi({ "GET /api/public-settings": { body: [{ key: "userCreation", value: "disabled" }] } });
    await renderApp("/login");
    await screen.findByRole("button", { name: "Enter" });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole("link", { name: /Register/ })).not.toBeInTheDocument();
  });

  it("links to signup when userCreation is enabled", async () => {
    await i18n.changeLanguage("en");
    fakeApi();
    await renderApp("/login");
    expect(await screen.findByRole("link", { name: /Register/ })).toHaveAttribute("href", "/signup");
  });
});
