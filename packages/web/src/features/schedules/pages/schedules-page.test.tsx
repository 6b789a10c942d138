import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Schedule } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderApp, renderWithProviders } from "../../../testing/render";
import { toLocalInput } from "../api/schedules";
import { ScheduleButton } from "../components/schedule-button";

const base: Schedule = {
  id: 1,
  ticketId: 7,
  contactId: 5,
  whatsappId: 1,
  userId: AGENT.id,
  body: "Your order ships tomorrow",
  mediaName: null,
  mediaType: null,
  sendAt: "2030-05-10T14:30:00.000Z",
  status: "scheduled",
  messageId: null,
  error: null,
  sentAt: null,
  contact: { id: 5, name: "Maria", number: "5511999990000", profilePicUrl: "" },
  user: { id: AGENT.id, name: AGENT.name },
  createdAt: "2030-05-01T10:00:00.000Z",
  updatedAt: "2030-05-01T10:00:00.000Z",
};
const failed: Schedule = {
  ...base,
  id: 2,
  userId: ADMIN.id,
  user: { id: ADMIN.id, name: ADMIN.name },
  body: "Contract attached",
  status: "failed",
  error: "The attached file is missing from the media storage",
};

describe("Agendamento: the scheduled messages list", () => {
  it("lists contact, ticket, body, send time, agent and status; filters by status and agent; cancels one's own", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({
      "GET /api/schedules": { body: { schedules: [base, failed], count: 2, hasMore: false } },
      "GET /api/users": { body: { users: [ADMIN, AGENT], count: 2, hasMore: false } },
      "DELETE /api/schedules/:id": { body: { ...base, status: "cancelled" } },
    });
    signedInAs(server, AGENT);
    const user = userEvent.setup();
    await renderApp("/ZDGAgendamento");
    // The page is its route's lazy chunk: on a loaded machine its first transform alone can take seconds.
    const rows = await screen.findAllByTestId("schedule-row", {}, { timeout: 25_000 });
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText("Maria")).toBeInTheDocument();
    expect(within(rows[0]).getByRole("link", { name: "#7" })).toHaveAttribute("href", "/tickets/7");
    expect(within(rows[0]).getByText("Your order ships tomorrow")).toBeInTheDocument();
    expect(within(rows[0]).getByText("Agent Smith")).toBeInTheDocument();
    expect(within(rows[0]).getByTestId("schedule-status")).toHaveTextContent("Scheduled");
    expect(within(rows[1]).getByTestId("schedule-status")).toHaveTextContent("Failed");
    expect(within(rows[1]).getByText(/missing from the media storage/)).toBeInTheDocument();
    // An agent changes only his own pending schedule.
    expect(within(rows[0]).getByRole("button", { name: "Cancel schedule" })).toBeInTheDocument();
    expect(within(rows[1]).queryByRole("button", { name: "Cancel schedule" })).not.toBeInTheDocument();

    await user.click(screen.getByRole("combobox", { name: "Status" }));
    await user.click(await screen.findByRole("option", { name: "Failed" }));
    await waitFor(() =>
      expect(server.calls.some((c) => c.path === "/api/schedules" && c.query.get("status") === "failed")).toBe(true),
    );
    await user.click(screen.getByRole("combobox", { name: "Agent" }));
    await user.click(await screen.findByRole("option", { name: ADMIN.name }));
    await waitFor(() =>
      expect(server.calls.some((c) => c.path === "/api/schedules" && c.query.get("userId") === String(ADMIN.id))).toBe(true),
    );

    await user.click(within(screen.getAllByTestId("schedule-row")[0]).getByRole("button", { name: "Cancel schedule" }));
    await user.click(await screen.findByRole("button", { name: /ok|confirm|yes/i }));
    await waitFor(() => expect(server.callsTo("DELETE", "/api/schedules/1")).toHaveLength(1));
  });
});

describe("the schedule dialog", () => {
  it("checks the time and the text, then posts ticketId, body and sendAt", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({ "POST /api/schedules": { status: 201, body: base } });
    signedInAs(server, AGENT);
    const user = userEvent.setup();
    await renderWithProviders(<ScheduleButton target={{ ticketId: 7 }} />);
    await user.click(screen.getByRole("button", { name: "Schedule message" }));
    const dialog = await screen.findByRole("dialog", { name: "Schedule message" });
    const when = within(dialog).getByLabelText("Send date and time");
    await user.clear(when);
    await user.type(when, toLocalInput(new Date(Date.now() - 24 * 60 * 60 * 1000)));
    await user.click(within(dialog).getByRole("button", { name: "Schedule" }));
    expect(await within(dialog).findByText("Choose a time in the future")).toBeInTheDocument();
    expect(within(dialog).getByText("Write the message or attach a file")).toBeInTheDocument();
    expect(server.callsTo("POST", "/api/schedules")).toHaveLength(0);

    const future = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000);
    future.setSeconds(0, 0);
    await user.clear(when);
    await user.type(when, toLocalInput(future));
    await user.type(within(dialog).getByLabelText("Message"), "See you tomorrow");
    await user.click(within(dialog).getByRole("button", { name: "Schedule" }));
    await waitFor(() => expect(server.callsTo("POST", "/api/schedules")).toHaveLength(1));
    expect(server.callsTo("POST", "/api/schedules")[0].body).toEqual({
      ticketId: 7,
      body: "See you tomorrow",
      sendAt: future.toISOString(),
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("shows a server field error next to its field", async () => {
    await i18n.changeLanguage("en");
    const server = fakeApi({
      "POST /api/schedules": {
        status: 400,
        body: { error: "ERR_VALIDATION", details: [{ path: ["sendAt"], message: "Must be within a year" }] },
      },
    });
    signedInAs(server, AGENT);
    const user = userEvent.setup();
    await renderWithProviders(<ScheduleButton target={{ contactId: 5 }} variant="button" />);
    await user.click(screen.getByRole("button", { name: "Schedule message" }));
    const dialog = await screen.findByRole("dialog");
    await user.type(within(dialog).getByLabelText("Message"), "Hello");
    await user.click(within(dialog).getByRole("button", { name: "Schedule" }));
    expect(await within(dialog).findByText("Must be within a year")).toBeInTheDocument();
    expect(server.callsTo("POST", "/api/schedules")[0].body).toMatchObject({ contactId: 5, body: "Hello" });
  });
});
