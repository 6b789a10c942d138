import { screen, within } from "@testing-library/react";
import type { Connection, ConnectionRestriction } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aConnection } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import ConnectionsPage from "../pages/connections-page";

const inHours = (n: number) => new Date(Date.now() + n * 3600_000).toISOString();
const cap = (over: Partial<NonNullable<ConnectionRestriction["newChatCap"]>>) => ({
  used: 12,
  total: 250,
  status: "NONE" as const,
  cycleEndsAt: inHours(24 * 10),
  updatedAt: new Date().toISOString(),
  ...over,
});

async function showPage(connections: Connection[], language = "en") {
  await i18n.changeLanguage(language);
  const api = fakeApi({ "GET /api/whatsapp": { body: connections } });
  signedInAs(api, ADMIN);
  await renderWithProviders(<ConnectionsPage />);
  await screen.findByRole("table");
}

describe("a restricted number on the connections screen", () => {
  it("says what WhatsApp blocks and until when, what is held and what goes, and the month's new chats", async () => {
    const locked = aConnection({
      id: 4,
      name: "Vendas",
      restriction: {
        timeLock: { enforcementType: "BIZ_QUALITY", endsAt: inHours(5), since: new Date().toISOString() },
        newChatCap: cap({ used: 230, status: "SECOND_WARNING" }),
      },
    });
    const capped = aConnection({
      id: 5,
      name: "Suporte",
      isDefault: false,
      restriction: { timeLock: null, newChatCap: cap({ used: 250, status: "CAPPED" }) },
    });
    const quiet = aConnection({
      id: 6,
      name: "Loja",
      isDefault: false,
      restriction: { timeLock: null, newChatCap: cap({ used: 12 }) },
    });
    await showPage([locked, capped, quiet]);

    const lock = await screen.findByRole("alert", { name: "What WhatsApp restricts on Vendas" });
    expect(lock).toHaveTextContent(/WhatsApp blocks new chats from this number until/);
    expect(lock).toHaveTextContent("Reason given by WhatsApp: BIZ_QUALITY.");
    expect(lock).toHaveTextContent(
      /Automatic messages .* wait and go when this ends; answers to customers who wrote go as usual/,
    );
    expect(lock).toHaveTextContent(/The monthly count starts again on/);

    const reached = screen.getByRole("alert", { name: "What WhatsApp restricts on Suporte" });
    expect(reached).toHaveTextContent("Monthly cap on new chats reached (250 of 250 used)");

    // Nothing to act on: the month's usage only, no alert.
    expect(screen.queryByRole("alert", { name: "What WhatsApp restricts on Loja" })).toBeNull();
    expect(screen.getByLabelText("What WhatsApp restricts on Loja")).toHaveTextContent("New chats this month: 12 of 250 used.");
  });

  it("warns before the cap, in Portuguese too", async () => {
    const warned = aConnection({
      name: "Vendas",
      restriction: { timeLock: null, newChatCap: cap({ used: 200, status: "FIRST_WARNING" }) },
    });
    await showPage([warned], "pt");
    const alert = await screen.findByRole("alert", { name: "O que o WhatsApp restringe em Vendas" });
    expect(
      within(alert).getByText("O WhatsApp avisa que o limite mensal de novas conversas está próximo (200 de 250 usadas)"),
    ).toBeInTheDocument();
  });
});
