import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, AGENT, type FakeRequest, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { BackupsPanel } from "./backups-panel";

const LIST = {
  backups: [{ name: "zapdesk-2026-03-04T03-00-01Z.zdb", size: 3 * 1024 * 1024, createdAt: "2026-03-04T03:00:05.000Z" }],
  schedule: { enabled: false, hour: 3, keep: 7 },
  lastRun: { day: "2026-03-04", at: "2026-03-04T03:00:00.000Z", ok: true, name: "zapdesk-2026-03-04T03-00-01Z.zdb", error: null },
};

describe("the backups panel", () => {
  beforeEach(() => i18n.changeLanguage("en"));

  it("lists the server's backups, turns the daily backup on and backs up now", async () => {
    let schedule = LIST.schedule;
    const api = fakeApi({
      "GET /api/backups": () => ({ body: { ...LIST, schedule } }),
      "PUT /api/backups/schedule": (request: FakeRequest) => {
        schedule = request.body as typeof schedule;
        return { body: schedule };
      },
      "POST /api/backups": { status: 201, body: LIST.backups[0] },
    });
    signedInAs(api, ADMIN);
    const user = userEvent.setup();
    await renderWithProviders(<BackupsPanel />);
    const list = await screen.findByRole("list", { name: "Backups on the server" });
    expect(within(list).getByText("zapdesk-2026-03-04T03-00-01Z.zdb")).toBeInTheDocument();
    expect(within(list).getByText(/3\.0 MB/)).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Last daily backup:");

    await user.click(screen.getByRole("combobox", { name: "Daily backup" }));
    await user.click(await screen.findByRole("option", { name: "Enabled" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/backups/schedule")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/backups/schedule")[0].body).toEqual({ enabled: true, hour: 3, keep: 7 });

    await user.click(screen.getByRole("combobox", { name: "keep" }));
    await user.click(await screen.findByRole("option", { name: "14 backups" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/backups/schedule")).toHaveLength(2));
    expect(api.callsTo("PUT", "/api/backups/schedule")[1].body).toEqual({ enabled: true, hour: 3, keep: 14 });

    await user.click(screen.getByRole("button", { name: "Back up to the server now" }));
    await waitFor(() => expect(api.callsTo("POST", "/api/backups")).toHaveLength(1));
  });

  it("in Portuguese", async () => {
    await i18n.changeLanguage("pt");
    signedInAs(fakeApi({ "GET /api/backups": { body: { ...LIST, backups: [], lastRun: null } } }), AGENT);
    await renderWithProviders(<BackupsPanel />);
    expect(await screen.findByText("Ainda não há backups na pasta de backups do servidor.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Baixar um backup agora" })).toBeInTheDocument();
  });
});
