import { screen, waitFor, within } from "@testing-library/react";
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

// Issue 22 §5: the users page offers an admin the reset of another user's two-factor sign-in (a lost phone).
describe("users page → reset two-factor sign-in", () => {
  it("is offered for the users who have it on (never for oneself) and resets after a confirmation", async () => {
    await i18n.changeLanguage("en");
    let withTwoFactor = [ADMIN.id, 10];
    const server = fakeApi({
      "GET /api/users": { body: { users: [ADMIN, person(10, "Ana"), person(11, "Bia")], count: 3, hasMore: false } },
      "GET /api/two-factor/users": () => ({ body: { userIds: withTwoFactor } }),
      "DELETE /api/users/:id/two-factor": (req) => {
        withTwoFactor = withTwoFactor.filter((id) => id !== Number(req.params.id));
        return { body: { message: "Two-factor sign-in was reset" } };
      },
    });
    signedInAs(server, ADMIN);
    const user = userEvent.setup();
    await renderApp("/users");
    // The page and its rows first (a cold start of the lazily loaded page is slow on a busy machine).
    await screen.findByRole("button", { name: "End all sessions: Ana" });
    const reset = await screen.findByRole("button", { name: "Reset two-factor sign-in: Ana" });
    expect(screen.queryByRole("button", { name: "Reset two-factor sign-in: Bia" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: `Reset two-factor sign-in: ${ADMIN.name}` })).not.toBeInTheDocument();

    await user.click(reset);
    const dialog = await screen.findByRole("dialog", { name: "Reset the two-factor sign-in of Ana?" });
    expect(server.callsTo("DELETE", "/api/users/10/two-factor")).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "Ok" }));
    expect(await screen.findByText("Two-factor sign-in of Ana reset.")).toBeInTheDocument();
    expect(server.callsTo("DELETE", "/api/users/10/two-factor")).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole("button", { name: "Reset two-factor sign-in: Ana" })).not.toBeInTheDocument());
  });

  it("says the reset is done even when the row left the page while it ran (a search, a refetch)", async () => {
    await i18n.changeLanguage("en");
    let answer: () => void = () => {};
    const server = fakeApi({
      "GET /api/users": (req) => {
        const all = [ADMIN, person(10, "Ana"), person(11, "Bia")];
        const users = all.filter((u) => u.name.toLowerCase().includes(req.query.get("searchParam")?.toLowerCase() ?? ""));
        return { body: { users, count: users.length, hasMore: false } };
      },
      "GET /api/two-factor/users": { body: { userIds: [10] } },
      // The server answers once the test has taken Ana's row off the page.
      "DELETE /api/users/:id/two-factor": () =>
        new Promise((resolve) => {
          answer = () => resolve({ body: { message: "Two-factor sign-in was reset" } });
        }),
    });
    signedInAs(server, ADMIN);
    const user = userEvent.setup();
    await renderApp("/users");
    await user.click(await screen.findByRole("button", { name: "Reset two-factor sign-in: Ana" }));
    const dialog = await screen.findByRole("dialog", { name: "Reset the two-factor sign-in of Ana?" });
    await user.click(within(dialog).getByRole("button", { name: "Ok" }));
    await waitFor(() => expect(server.callsTo("DELETE", "/api/users/10/two-factor")).toHaveLength(1));
    await user.type(await screen.findByRole("searchbox", { name: "Search" }), "Bia");
    await waitFor(() => expect(screen.queryByRole("button", { name: "Reset two-factor sign-in: Ana" })).not.toBeInTheDocument());
    answer();
    expect(await screen.findByText("Two-factor sign-in of Ana reset.")).toBeInTheDocument();
  });
});
