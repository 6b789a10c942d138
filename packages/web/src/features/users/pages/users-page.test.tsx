import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { User } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderApp } from "../../../testing/render";

const person = (id: number, name: string): User => ({
  ...ADMIN,
  id,
  name,
  email: `${name.toLowerCase()}@zapdesk.local`,
  profile: "user",
});

describe("users page", () => {
  it("loads the next page on scroll and starts again at page 1 when the search changes", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({
      "GET /api/users": (req) => {
        const search = req.query.get("searchParam") ?? "";
        const page = Number(req.query.get("pageNumber"));
        if (search) return { body: { users: [person(30, "Zoe")], count: 1, hasMore: false } };
        return page === 1
          ? { body: { users: [person(10, "Ana")], count: 2, hasMore: true } }
          : { body: { users: [person(11, "Bia")], count: 2, hasMore: false } };
      },
    });
    signedInAs(server, ADMIN);
    const user = userEvent.setup();
    await renderApp("/users");
    expect(await screen.findByRole("cell", { name: "Ana" })).toBeInTheDocument();

    fireEvent.scroll(screen.getByTestId("page-content"));
    expect(await screen.findByRole("cell", { name: "Bia" })).toBeInTheDocument();
    expect(server.callsTo("GET", "/api/users").map((c) => c.query.get("pageNumber"))).toEqual(["1", "2"]);

    await user.type(screen.getByRole("searchbox", { name: "Search" }), "ZO");
    expect(await screen.findByRole("cell", { name: "Zoe" })).toBeInTheDocument();
    const last = server.callsTo("GET", "/api/users").at(-1);
    expect(last?.query.get("searchParam")).toBe("zo");
    expect(last?.query.get("pageNumber")).toBe("1");
    expect(screen.queryByRole("cell", { name: "Ana" })).not.toBeInTheDocument();
  });

  it("deletes a user after confirmation", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({
      "GET /api/users": { body: { users: [person(10, "Ana")], count: 1, hasMore: false } },
      "DELETE /api/users/:id": { body: { message: "User deleted" } },
    });
    signedInAs(server, ADMIN);
    const user = userEvent.setup();
    await renderApp("/users");
    await user.click(await screen.findByRole("button", { name: "Delete Ana" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete Ana?" });
    await user.click(within(dialog).getByRole("button", { name: "Ok" }));
    expect(await screen.findByText("User deleted successfully.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("cell", { name: "Ana" })).not.toBeInTheDocument());
    expect(server.callsTo("DELETE", "/api/users/10")).toHaveLength(1);
  });

  it("says why the last administrator cannot be deleted", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({
      "GET /api/users": { body: { users: [ADMIN], count: 1, hasMore: false } },
      "DELETE /api/users/:id": { status: 409, body: { error: "ERR_LAST_ADMIN", message: "last admin" } },
    });
    signedInAs(server, ADMIN);
    const user = userEvent.setup();
    await renderApp("/users");
    await user.click(await screen.findByRole("button", { name: `Delete ${ADMIN.name}` }));
    const dialog = await screen.findByRole("dialog", { name: `Delete ${ADMIN.name}?` });
    await user.click(within(dialog).getByRole("button", { name: "Ok" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The last administrator cannot be deleted or lose that profile.");
    expect(screen.getByRole("cell", { name: ADMIN.name })).toBeInTheDocument();
  });

  it("ends all of a user's sessions after a confirmation (issue 22)", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({
      "GET /api/users": { body: { users: [person(10, "Ana")], count: 1, hasMore: false } },
      "DELETE /api/users/:id/sessions": { body: { ended: 2 } },
    });
    signedInAs(server, ADMIN);
    const user = userEvent.setup();
    await renderApp("/users");
    await user.click(await screen.findByRole("button", { name: "End all sessions: Ana" }));
    const dialog = await screen.findByRole("dialog", { name: "End every session of Ana?" });
    expect(server.callsTo("DELETE", "/api/users/10/sessions")).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "Ok" }));
    await waitFor(() => expect(server.callsTo("DELETE", "/api/users/10/sessions")).toHaveLength(1));
    expect(await screen.findByText("2 sessions ended.")).toBeInTheDocument();
  });
});
