import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { fakeApi } from "../../../testing/fake-api";
import { fill, LANGUAGE_CASES, t } from "../../../testing/messages";
import { renderApp } from "../../../testing/render";

async function openSignup(lang: string) {
  await i18n.changeLanguage(lang);
  const user = userEvent.setup();
  const view = await renderApp("/signup");
  const submit = await screen.findByRole("button", { name: t("signup.buttons.submit") });
  const field = (key: string) => screen.getByLabelText(t(`signup.form.${key}`));
  return { user, submit, field, ...view };
}

describe("signup page validation (spec §5)", () => {
  for (const c of LANGUAGE_CASES) {
    it(`shows every message in ${c.lang}`, async () => {
      fakeApi();
      const { user, submit, field } = await openSignup(c.lang);

      await user.click(submit);
      expect(await screen.findAllByText(c.required)).toHaveLength(3);

      await fill(user, field("name"), "a");
      await fill(user, field("email"), "not-an-email");
      await fill(user, field("password"), "1234");
      await user.click(submit);
      expect(await screen.findAllByText(c.tooShort)).toHaveLength(2);
      expect(screen.getByText(c.invalidEmail)).toBeInTheDocument();

      await fill(user, field("name"), "n".repeat(51));
      await fill(user, field("password"), "p".repeat(51));
      await user.click(submit);
      expect(await screen.findAllByText(c.tooLong)).toHaveLength(2);
    });
  }

  it("sends the form, says the same thing whether the email was free or taken, and returns to login", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({ "POST /api/auth/signup": { body: { message: "If this email was not registered yet…" } } });
    const { user, submit, field, router } = await openSignup("en");
    await fill(user, field("name"), "Agent Smith");
    await fill(user, field("email"), "agent@zapdesk.local");
    await fill(user, field("password"), "secret1");
    await user.click(submit);
    expect(
      await screen.findByText(
        "Registration received. Sign in with this email and password; if the email already had an account, sign in with that account or ask your administrator.",
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(server.callsTo("POST", "/api/auth/signup")[0].body).toEqual({
      name: "Agent Smith",
      email: "agent@zapdesk.local",
      password: "secret1",
    });
  });

  it("is not offered while user creation is disabled", async () => {
    await i18n.changeLanguage("en");
    fakeApi({ "GET /api/public-settings": { body: [{ key: "userCreation", value: "disabled" }] } });
    await renderApp("/signup");
    expect(await screen.findByText("User creation was disabled by the administrator.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Register" })).not.toBeInTheDocument();
  });
});
