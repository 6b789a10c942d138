import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import i18n from "../lib/i18n";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../testing/fake-api";
import { renderApp } from "../testing/render";
import { routes } from "./router";

const LIST = { users: [ADMIN, AGENT], count: 2, hasMore: false };
const connection = (status: string) => ({
  id: 1,
  name: "Front desk",
  provider: "simulator",
  status,
  qrcode: "",
  retries: 0,
  isDefault: true,
  greetingMessage: "",
  farewellMessage: "",
  updatedAt: "2026-01-01T10:00:00.000Z",
  queues: [],
});

/** The permission guarding a path in the route tree (the nearest guard above it). */
function guardOf(tree: RouteObject[], path: string, guard?: unknown): unknown {
  for (const route of tree) {
    const props = (route.element as { props?: { permission?: unknown } } | undefined)?.props;
    const here = props?.permission ?? guard;
    if (route.path === path) return here;
    const found = route.children && guardOf(route.children, path, here);
    if (found) return found;
  }
  return undefined;
}

describe("routes and layout (spec §2, §4, §6)", () => {
  it("guards each administration screen with the permission its server routes check", () => {
    expect(guardOf(routes, "/tags")).toBe("tags:manage");
    expect(guardOf(routes, "/users")).toBe("users:manage");
    expect(guardOf(routes, "/Queues")).toBe("queues:manage");
    expect(guardOf(routes, "/webhooks")).toBe("webhooks:manage");
    expect(guardOf(routes, "/contacts")).toBeUndefined();
  });

  it("sends an anonymous visitor of a private route to /login", async () => {
    fakeApi();
    const { router } = await renderApp("/users");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
  });

  it("restores the session on load and sends a signed-in user away from /login", async () => {
    const server = fakeApi();
    signedInAs(server, ADMIN);
    const { router } = await renderApp("/login");
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(localStorage.getItem("token")).toBe("access-2");
  });

  it("shows the Administration section to admins", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({ "GET /api/users": { body: LIST } });
    signedInAs(server, ADMIN);
    await renderApp("/users");
    const nav = await screen.findByRole("navigation", { name: "Main menu" });
    expect(within(nav).getByText("Administration")).toBeInTheDocument();
    for (const item of ["Users", "Connections", "Queues", "Settings"])
      expect(within(nav).getByRole("link", { name: item })).toBeInTheDocument();
    expect(await screen.findByText("agent@zapdesk.local")).toBeInTheDocument();
  });

  it("hides the Administration section from agents and keeps them off admin routes", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi();
    signedInAs(server, AGENT);
    const { router } = await renderApp("/users");
    const nav = await screen.findByRole("navigation", { name: "Main menu" });
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(within(nav).queryByText("Administration")).not.toBeInTheDocument();
    expect(within(nav).queryByRole("link", { name: "Users" })).not.toBeInTheDocument();
    expect(within(nav).getByRole("link", { name: "Contacts" })).toBeInTheDocument();
    expect(server.callsTo("GET", "/api/users")).toHaveLength(0);
  });

  it("lights the Connections '!' badge 2 s after a session needs attention", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({ "GET /api/whatsapp": { body: [connection("qrcode")] } });
    signedInAs(server, ADMIN);
    await renderApp("/");
    await screen.findByRole("navigation", { name: "Main menu" });
    await waitFor(() => expect(server.callsTo("GET", "/api/whatsapp")).toHaveLength(1));
    expect(screen.queryByLabelText("Some connections need attention")).not.toBeInTheDocument();
    expect(await screen.findByLabelText("Some connections need attention", {}, { timeout: 4000 })).toHaveTextContent("!");
  });

  it("lights the badge for a connected number WhatsApp restricts", async () => {
    await i18n.changeLanguage("en");
    const endsAt = new Date(Date.now() + 3600_000).toISOString();
    const restricted = {
      ...connection("CONNECTED"),
      restriction: { timeLock: { enforcementType: "DEFAULT", endsAt, since: endsAt }, newChatCap: null },
    };
    const server = fakeApi({ "GET /api/whatsapp": { body: [restricted] } });
    signedInAs(server, ADMIN);
    await renderApp("/");
    await screen.findByRole("navigation", { name: "Main menu" });
    expect(await screen.findByLabelText("Some connections need attention", {}, { timeout: 4000 })).toHaveTextContent("!");
  });

  it("shows no badge while every session is connected", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({ "GET /api/whatsapp": { body: [connection("CONNECTED")] } });
    signedInAs(server, ADMIN);
    await renderApp("/");
    await screen.findByRole("navigation", { name: "Main menu" });
    await new Promise((r) => setTimeout(r, 2500));
    expect(screen.queryByLabelText("Some connections need attention")).not.toBeInTheDocument();
  });

  it("opens one's own profile from the user menu and logs out", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({ "DELETE /api/auth/logout": { body: { message: "Logged out" } } });
    signedInAs(server, AGENT);
    const user = userEvent.setup();
    const { router } = await renderApp("/");
    await user.click(await screen.findByRole("button", { name: "User menu" }));
    await user.click(await screen.findByRole("menuitem", { name: "Profile" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit user" });
    expect(within(dialog).getByLabelText("Name")).toHaveValue("Agent Smith");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await user.click(screen.getByRole("button", { name: "User menu" }));
    await user.click(await screen.findByRole("menuitem", { name: "Logout" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(server.callsTo("DELETE", "/api/auth/logout")).toHaveLength(1);
    expect(localStorage.getItem("token")).toBeNull();
  });

  it("switches language from the app bar and remembers it", async () => {
    const server = fakeApi();
    signedInAs(server, ADMIN);
    const user = userEvent.setup();
    await renderApp("/");
    const nav = await screen.findByRole("navigation", { name: "Menu principal" });
    expect(within(nav).getByRole("link", { name: "Contatos" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Mudar idioma" }));
    await user.click(await screen.findByRole("menuitem", { name: "Español" }));
    expect(await within(nav).findByRole("link", { name: "Contactos" })).toBeInTheDocument();
    expect(localStorage.getItem("i18nextLng")).toBe("es");
    expect(document.documentElement.lang).toBe("es");
  });
});
