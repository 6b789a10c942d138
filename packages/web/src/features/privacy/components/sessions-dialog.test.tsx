import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { SessionInfo } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { UserMenu } from "../../../app/layout/user-menu";
import i18n from "../../../lib/i18n";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { deviceOf } from "../api/privacy";

const at = "2026-03-02T12:00:00.000Z";
const here: SessionInfo = {
  id: "11111111-1111-4111-8111-111111111111",
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36",
  ip: "10.0.0.2",
  createdAt: at,
  lastSeenAt: at,
  current: true,
};
const phone: SessionInfo = {
  id: "22222222-2222-4222-8222-222222222222",
  userAgent:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1",
  ip: "203.0.113.9",
  createdAt: at,
  lastSeenAt: at,
  current: false,
};

describe("user menu → Sessions", () => {
  it("lists the user's sessions with device and address, and ends another one", async () => {
    await i18n.changeLanguage("en");
    let sessions = [here, phone];
    const server = fakeApi({
      "GET /api/sessions": () => ({ body: { sessions } }),
      "DELETE /api/sessions/:id": (req) => {
        sessions = sessions.filter((s) => s.id !== req.params.id);
        return { body: { message: "Session ended" } };
      },
    });
    signedInAs(server, AGENT);
    await renderWithProviders(<UserMenu />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "User menu" }));
    await user.click(await screen.findByRole("menuitem", { name: "Sessions" }));
    const dialog = await screen.findByRole("dialog", { name: "Your sessions" });
    const list = within(dialog).getByRole("list", { name: "Your sessions" });
    const rows = await within(list).findAllByRole("listitem");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent("Chrome on Linux");
    expect(rows[0]).toHaveTextContent("This device");
    expect(rows[1]).toHaveTextContent("Safari on iOS");
    expect(rows[1]).toHaveTextContent("203.0.113.9");

    await user.click(within(rows[1]!).getByRole("button", { name: "End" }));
    await waitFor(() => expect(server.callsTo("DELETE", `/api/sessions/${phone.id}`)).toHaveLength(1));
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(1));
    expect(within(list).getByRole("listitem")).toHaveTextContent("This device");
  });

  it("names devices from their user agent", () => {
    expect(deviceOf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36 Edg/120")).toEqual({
      browser: "Edge",
      os: "Windows",
    });
    expect(deviceOf("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0; rv:121.0) Gecko/20100101 Firefox/121.0")).toEqual({
      browser: "Firefox",
      os: "macOS",
    });
    expect(deviceOf("curl/8.0")).toEqual({ browser: "", os: "" });
  });
});
