import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { fill, LANGUAGE_CASES, t } from "../../../testing/messages";
import { renderWithProviders } from "../../../testing/render";
import { QuickAnswerModal } from "./quick-answer-modal";

async function openModal(lang: string, routes = {}) {
  await i18n.changeLanguage(lang);
  const server = fakeApi(routes);
  signedInAs(server, ADMIN);
  const user = userEvent.setup();
  await renderWithProviders(<QuickAnswerModal open answer={null} onClose={() => {}} />);
  await screen.findByRole("dialog");
  const field = (key: string) => screen.getByLabelText(t(`quickAnswersModal.form.${key}`));
  const submit = () => screen.getByRole("button", { name: t("quickAnswersModal.buttons.okAdd") });
  return { server, user, field, submit };
}

describe("quick answer modal validation (spec §5)", () => {
  for (const c of LANGUAGE_CASES) {
    it(`shows every message in ${c.lang}`, async () => {
      const { user, field, submit } = await openModal(c.lang);
      await user.click(submit());
      expect(await screen.findAllByText(c.required)).toHaveLength(2);

      await fill(user, field("shortcut"), "a");
      await fill(user, field("message"), "short");
      await user.click(submit());
      expect(await screen.findAllByText(c.tooShort)).toHaveLength(2);

      await fill(user, field("shortcut"), "s".repeat(16));
      await fill(user, field("message"), "m".repeat(30001));
      await user.click(submit());
      expect(await screen.findAllByText(c.tooLong)).toHaveLength(2);
    });
  }

  it("saves a valid answer", async () => {
    const { server, user, field, submit } = await openModal("en", {
      "POST /api/quickAnswers": (req: { body: unknown }) => ({ body: { id: 1, ...(req.body as object) } }),
    });
    await fill(user, field("shortcut"), "hello");
    await fill(user, field("message"), "Hello, how can I help?");
    await user.click(submit());
    await waitFor(() => expect(server.callsTo("POST", "/api/quickAnswers")).toHaveLength(1));
    expect(server.calls.at(-1)?.body).toEqual({ shortcut: "hello", message: "Hello, how can I help?" });
  });
});
