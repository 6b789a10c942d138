import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AuditEntry } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderApp } from "../../../testing/render";

const entry = (id: number, over: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  userId: ADMIN.id,
  userName: ADMIN.name,
  userEmail: ADMIN.email,
  action: "setting.changed",
  targetType: "setting",
  targetId: "userCreation",
  details: { from: "enabled", to: "disabled" },
  ip: "10.0.0.1",
  userAgent: "Browser",
  createdAt: "2026-03-02T12:00:00.000Z",
  ...over,
});

describe("audit page", () => {
  it("shows the trail, filters by action and user, and pages on by keyset", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({
      "GET /api/users": { body: { users: [ADMIN, AGENT], count: 2, hasMore: false } },
      "GET /api/audit": (req) => {
        if (req.query.get("before") === "50")
          return { body: { entries: [entry(10, { action: "auth.login" })], nextBefore: null } };
        if (req.query.get("action") === "auth.loginFailed") {
          return {
            body: {
              entries: [
                entry(7, {
                  action: "auth.loginFailed",
                  userId: null,
                  userName: "",
                  userEmail: "x@y.z",
                  details: { attemptedEmail: "x@y.z" },
                }),
              ],
              nextBefore: null,
            },
          };
        }
        return {
          body: {
            entries: [entry(60), entry(50, { action: "user.deleted", targetType: "user", targetId: "9" })],
            nextBefore: 50,
          },
        };
      },
    });
    signedInAs(server, ADMIN);
    const user = userEvent.setup();
    await renderApp("/audit");
    await screen.findByRole("heading", { name: "Audit trail" });
    expect(screen.getByRole("link", { name: "Audit" })).toHaveAttribute("aria-current", "page");
    const table = screen.getByRole("table", { name: "Audit trail" });
    expect(await within(table).findByText("Changed a setting")).toBeInTheDocument();
    expect(within(table).getByText("Deleted a user")).toBeInTheDocument();
    expect(within(table).getByText("user #9")).toBeInTheDocument();
    expect(within(table).getAllByText(/"to":"disabled"/)).toHaveLength(2);

    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await within(table).findByText("Signed in")).toBeInTheDocument();
    expect(server.calls.some((c) => c.path === "/api/audit" && c.query.get("before") === "50")).toBe(true);

    await user.click(screen.getByRole("combobox", { name: "Action" }));
    await user.click(await screen.findByRole("option", { name: "Sign-in failed" }));
    expect(await within(table).findByText("Sign-in failed")).toBeInTheDocument();
    await waitFor(() => expect(within(table).queryByText("Changed a setting")).not.toBeInTheDocument());
    expect(within(table).getByText("x@y.z")).toBeInTheDocument();

    await user.click(screen.getByRole("combobox", { name: "User" }));
    await user.click(await screen.findByRole("option", { name: AGENT.name }));
    await waitFor(() =>
      expect(
        server.calls.some(
          (c) =>
            c.path === "/api/audit" && c.query.get("userId") === String(AGENT.id) && c.query.get("action") === "auth.loginFailed",
        ),
      ).toBe(true),
    );
  });

  it("sends the day range as instants and refuses an end before the start", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({
      "GET /api/users": { body: { users: [ADMIN], count: 1, hasMore: false } },
      "GET /api/audit": { body: { entries: [], nextBefore: null } },
    });
    signedInAs(server, ADMIN);
    const user = userEvent.setup();
    await renderApp("/audit");
    expect(await screen.findByText("No entry matches these filters.")).toBeInTheDocument();
    await user.type(screen.getByLabelText("From"), "2026-03-05");
    await waitFor(() => {
      const from = server.calls
        .filter((c) => c.path === "/api/audit")
        .at(-1)
        ?.query.get("from");
      expect(from && new Date(from).getTime()).toBe(new Date("2026-03-05T00:00:00").getTime());
    });
    await user.type(screen.getByLabelText("To"), "2026-03-01");
    expect(await screen.findByText("The start of the period must come before its end.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Export CSV" })).toBeDisabled();
  });

  it("is not in an agent's drawer", async () => {
    // (Agents see no administration items at all; the audit item follows `audit:view`.)
    await i18n.changeLanguage("en");
    const server = fakeApi({ "GET /api/tickets": { body: { tickets: [], count: 0, hasMore: false } } });
    signedInAs(server, AGENT);
    await renderApp("/");
    await screen.findByRole("button", { name: "User menu" });
    expect(await screen.findByRole("link", { name: "Contacts" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Audit" })).not.toBeInTheDocument();
  });
});
