import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aMessage, aTicket } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { TicketActions } from "./ticket-actions";

describe("issue 13: the CSV export is in the ticket's menu", () => {
  it("the options menu downloads the conversation as CSV", async () => {
    const ticket = aTicket({ status: "closed", userId: AGENT.id });
    const api = fakeApi({
      "GET /api/messages/:ticketId": {
        body: {
          messages: [aMessage({ id: 11, body: "Olá", createdAt: "2026-01-02T10:00:00.000Z" })],
          ticket,
          count: 1,
          hasMore: false,
        },
      },
    });
    signedInAs(api, AGENT);
    const blobs: Blob[] = [];
    // jsdom has no object URLs: a URL class that keeps the blob it is given.
    class BlobURL extends URL {
      static createObjectURL = (blob: Blob) => {
        blobs.push(blob);
        return "blob:csv";
      };
      static revokeObjectURL = () => {};
    }
    vi.stubGlobal("URL", BlobURL);
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe("conversa-7.csv");
    });
    await renderWithProviders(<TicketActions ticket={ticket} />);
    const user = userEvent.setup();

    // A closed ticket of an agent had no menu before: the export gives it one.
    await user.click(await screen.findByRole("button", { name: "Opções do ticket" }));
    const menu = await screen.findByRole("menu");
    await user.click(within(menu).getByRole("menuitem", { name: "Exportar conversa (CSV)" }));
    await waitFor(() => expect(clicked).toHaveBeenCalledOnce());
    expect(api.callsTo("GET", "/api/messages/7")).toHaveLength(1);
    const csv = await blobs[0].text();
    expect(csv.replace(/^\uFEFF/, "").split("\r\n")[0]).toBe("body,id,fromMe,quoted,isDel,mediaUrl,type,created");
    expect(csv).toContain('"Olá","11"');
  });
});
