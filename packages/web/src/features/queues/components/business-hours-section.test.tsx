import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Queue } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { OpenNowChip } from "./open-now-chip";
import { QueueModal } from "./queue-modal";

const queue: Queue = {
  id: 7,
  name: "Suporte",
  color: "#123456",
  greetingMessage: "",
  closingReason: "off",
  schedule: null,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
};

async function openModal(current: Queue) {
  await i18n.changeLanguage("en");
  const server = fakeApi({
    "PUT /api/queue/7": (req: { body: unknown }) => ({ body: { ...current, ...(req.body as object) } }),
  });
  signedInAs(server, ADMIN);
  const user = userEvent.setup();
  await renderWithProviders(<QueueModal open queue={current} onClose={() => {}} />);
  await screen.findByRole("dialog");
  return { server, user, save: () => user.click(screen.getByRole("button", { name: "Save" })) };
}

describe("queue business hours section", () => {
  it("turns a schedule on with Monday–Friday 9–18 in the browser's zone, edits it and saves it", async () => {
    const { server, user, save } = await openModal(queue);
    expect(screen.getByText("Always open: no out-of-hours message is sent.")).toBeInTheDocument();
    await user.click(screen.getByRole("switch", { name: "Serve only at set hours" }));
    const sunday = screen.getByRole("group", { name: "Sunday" });
    expect(within(sunday).getByText("Closed")).toBeInTheDocument();
    expect(screen.getByLabelText("Monday, interval 1, start")).toHaveValue("09:00");
    expect(screen.getByLabelText("Friday, interval 1, end")).toHaveValue("18:00");

    // A lunch break on Monday: 09:00–12:00 and 13:00–18:00.
    fireEvent.change(screen.getByLabelText("Monday, interval 1, end"), { target: { value: "12:00" } });
    await user.click(screen.getByRole("button", { name: "Add an interval on Monday" }));
    fireEvent.change(screen.getByLabelText("Monday, interval 2, start"), { target: { value: "13:00" } });
    fireEvent.change(screen.getByLabelText("Monday, interval 2, end"), { target: { value: "18:00" } });
    // Saturday until midnight: typed 00:00, stored as 24:00.
    await user.click(screen.getByRole("button", { name: "Add an interval on Saturday" }));
    fireEvent.change(screen.getByLabelText("Saturday, interval 1, start"), { target: { value: "20:00" } });
    fireEvent.change(screen.getByLabelText("Saturday, interval 1, end"), { target: { value: "00:00" } });
    await user.click(screen.getByRole("button", { name: "Add a holiday" }));
    fireEvent.change(screen.getByLabelText("Date"), { target: { value: "2026-12-25" } });
    // Pasted, not typed key by key: each key re-renders the whole form, which a loaded CI machine
    // turned into a 30 s timeout; what is checked is the value saved, not the keystrokes.
    await user.click(screen.getByLabelText("Name (optional)"));
    await user.paste("Christmas");
    const message = screen.getByLabelText("Out-of-hours message");
    await user.clear(message);
    await user.paste("We are closed");
    await save();

    await waitFor(() => expect(server.callsTo("PUT", "/api/queue/7")).toHaveLength(1));
    const body = server.calls.at(-1)?.body as { schedule: Queue["schedule"] };
    expect(body.schedule).toEqual({
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      days: [
        { weekday: 1, from: "09:00", to: "12:00" },
        { weekday: 2, from: "09:00", to: "18:00" },
        { weekday: 3, from: "09:00", to: "18:00" },
        { weekday: 4, from: "09:00", to: "18:00" },
        { weekday: 5, from: "09:00", to: "18:00" },
        { weekday: 1, from: "13:00", to: "18:00" },
        { weekday: 6, from: "20:00", to: "24:00" },
      ],
      outOfHoursMessage: "We are closed",
      holidays: [{ date: "2026-12-25", name: "Christmas" }],
    });
  }, 90_000); // Three dozen interactions with a full MUI form: slow in jsdom on a loaded machine.

  it("shows translated errors for an end before its start and an empty holiday, and saves nothing", async () => {
    const { server, user } = await openModal({
      ...queue,
      schedule: {
        timezone: "America/Sao_Paulo",
        days: [{ weekday: 2, from: "18:00", to: "09:00" }],
        outOfHoursMessage: "",
        holidays: [],
      },
    });
    await i18n.changeLanguage("pt");
    await user.click(screen.getByRole("button", { name: "Adicionar feriado" }));
    await user.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findByText("O fim deve ser depois do início")).toBeInTheDocument();
    expect(screen.getByText("Informe uma data válida")).toBeInTheDocument();
    expect(server.callsTo("PUT", "/api/queue/7")).toHaveLength(0);
  });

  it("removes a schedule with the switch (always open again)", async () => {
    const { server, user, save } = await openModal({
      ...queue,
      schedule: { timezone: "UTC", days: [], outOfHoursMessage: "x", holidays: [] },
    });
    await user.click(screen.getByRole("switch", { name: "Serve only at set hours" }));
    await save();
    await waitFor(() => expect(server.callsTo("PUT", "/api/queue/7")).toHaveLength(1));
    expect(server.calls.at(-1)?.body).toMatchObject({ schedule: null });
  });
});

describe("open now chip", () => {
  it("says always open, open now or closed now", async () => {
    await i18n.changeLanguage("en");
    const { unmount } = await renderWithProviders(<OpenNowChip schedule={null} />);
    expect(screen.getByText("Always open")).toBeInTheDocument();
    unmount();
    const everyMinute = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, from: "00:00", to: "24:00" }));
    const open = await renderWithProviders(
      <OpenNowChip schedule={{ timezone: "UTC", days: everyMinute, outOfHoursMessage: "", holidays: [] }} />,
    );
    expect(screen.getByText("Open now")).toBeInTheDocument();
    open.unmount();
    await renderWithProviders(<OpenNowChip schedule={{ timezone: "UTC", days: [], outOfHoursMessage: "", holidays: [] }} />);
    expect(screen.getByText("Closed now")).toBeInTheDocument();
  });
});
