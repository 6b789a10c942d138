import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { TwoFactorStatus } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { UserMenu } from "../../../app/layout/user-menu";
import i18n from "../../../lib/i18n";
import { AGENT, type FakeRequest, fakeApi, signedInAs } from "../../../testing/fake-api";
import { fill } from "../../../testing/messages";
import { renderWithProviders } from "../../../testing/render";

// Issue 22 §5: the user's own two-factor sign-in, from the user menu, over a fake server.
describe("user menu → Two-factor sign-in", () => {
  it("turns it on: QR code and secret, a wrong first code stays in the dialog, then the recovery codes once", async () => {
    await i18n.changeLanguage("en");
    let status: TwoFactorStatus = { enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false };
    const server = fakeApi({
      "GET /api/two-factor": () => ({ body: status }),
      "POST /api/two-factor/enrol": {
        body: { secret: "JBSWY3DPEHPK3PXP", otpauthUri: "otpauth://totp/Zapdesk:agent?secret=JBSWY3DPEHPK3PXP" },
      },
      "POST /api/two-factor/confirm": ({ body }: FakeRequest) => {
        if ((body as { code: string }).code !== "123456") return { status: 400, body: { error: "ERR_TOTP_INVALID" } };
        status = { enabled: true, enabledAt: "2026-12-01T10:00:00.000Z", recoveryCodesLeft: 10, required: false };
        return { body: { recoveryCodes: ["aaaaa-bbbbb", "ccccc-ddddd"] } };
      },
    });
    signedInAs(server, AGENT);
    await renderWithProviders(<UserMenu />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "User menu" }));
    await user.click(await screen.findByRole("menuitem", { name: "Two-factor sign-in" }));
    const dialog = await screen.findByRole("dialog", { name: "Two-factor sign-in" });
    expect(await within(dialog).findByText(/Two-factor sign-in is off/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Turn on" }));

    expect(await within(dialog).findByRole("img", { name: "QR code for the authenticator app" })).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Secret key")).toHaveValue("JBSWY3DPEHPK3PXP");
    const code = within(dialog).getByLabelText("Code from the app");
    await fill(user, code, "000000");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await within(dialog).findByText(/This code is not valid or was already used/)).toBeInTheDocument();
    await fill(user, code, "123456");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));

    const list = await within(dialog).findByRole("list", { name: "Recovery codes" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["aaaaa-bbbbb", "ccccc-ddddd"]);
    await user.click(within(dialog).getByRole("button", { name: "I have saved them" }));
    expect(await within(dialog).findByText(/Recovery codes left: 10/)).toBeInTheDocument();
    expect(within(dialog).queryByText("aaaaa-bbbbb")).not.toBeInTheDocument();
    expect(server.callsTo("POST", "/api/two-factor/confirm").map((c) => c.body)).toEqual([
      { code: "000000" },
      { code: "123456" },
    ]);
  });

  it("turns it off with the password instead of a code", async () => {
    await i18n.changeLanguage("en");
    let status: TwoFactorStatus = { enabled: true, enabledAt: "2026-12-01T10:00:00.000Z", recoveryCodesLeft: 7, required: false };
    const server = fakeApi({
      "GET /api/two-factor": () => ({ body: status }),
      "POST /api/two-factor/disable": () => {
        status = { enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false };
        return { body: { message: "Two-factor sign-in is off" } };
      },
    });
    signedInAs(server, AGENT);
    await renderWithProviders(<UserMenu />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "User menu" }));
    await user.click(await screen.findByRole("menuitem", { name: "Two-factor sign-in" }));
    const dialog = await screen.findByRole("dialog", { name: "Two-factor sign-in" });
    await user.click(await within(dialog).findByRole("button", { name: "Turn off" }));
    await user.click(within(dialog).getByRole("button", { name: "Use my password instead" }));
    await fill(user, within(dialog).getByLabelText("Password"), "my-pass");
    await user.click(within(dialog).getByRole("button", { name: "Turn off" }));
    await waitFor(() => expect(server.callsTo("POST", "/api/two-factor/disable")[0]?.body).toEqual({ password: "my-pass" }));
    expect(await within(dialog).findByText(/Two-factor sign-in is off/)).toBeInTheDocument();
  });
});
