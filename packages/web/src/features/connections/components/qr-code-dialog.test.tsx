import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Connection } from "@zapdesk/core";
import { describe, expect, it, vi } from "vitest";
import i18n from "../../../lib/i18n";
import { fakeApi } from "../../../testing/fake-api";
import { aConnection } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { QrCodeDialog } from "./qr-code-dialog";

const base: Connection = aConnection({ provider: "simulator", status: "qrcode", qrcode: "2@abc,def,ghi" });

describe("QR code dialog (spec §4)", () => {
  it("shows the code, then closes itself when an update arrives with an empty code", async () => {
    await i18n.changeLanguage("en");
    fakeApi();
    const onClose = vi.fn();
    const view = await renderWithProviders(<QrCodeDialog connection={base} onClose={onClose} />);
    expect(await screen.findByRole("img", { name: "Scan this QR Code with WhatsApp on your phone" })).toBeInTheDocument();

    view.rerender(<QrCodeDialog connection={{ ...base, qrcode: "2@new,code" }} onClose={onClose} />);
    expect(onClose).not.toHaveBeenCalled();

    view.rerender(<QrCodeDialog connection={{ ...base, status: "CONNECTED", qrcode: "" }} onClose={onClose} />);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("waits for a code when there is none yet", async () => {
    await i18n.changeLanguage("en");
    fakeApi();
    const onClose = vi.fn();
    await renderWithProviders(<QrCodeDialog connection={{ ...base, status: "OPENING", qrcode: "" }} onClose={onClose} />);
    expect(await screen.findByText("Waiting for QR Code")).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it("shows the phone pairing code large, in two groups of four, and closes once the phone paired", async () => {
    await i18n.changeLanguage("en");
    fakeApi();
    const onClose = vi.fn();
    const pairing = { ...base, provider: "baileys" as const, qrcode: "", pairingCode: "K7QP2MZX", pairingPhone: "5511999990000" };
    const view = await renderWithProviders(<QrCodeDialog connection={pairing} onClose={onClose} />);
    const code = await screen.findByRole("img", { name: "Pairing code K7QP 2MZX" });
    expect(code).toHaveTextContent("K7QP-2MZX");
    expect(screen.getByText(/On the phone 5511999990000: WhatsApp > Linked devices/)).toBeInTheDocument();
    expect(screen.queryByRole("img", { name: "Scan this QR Code with WhatsApp on your phone" })).toBeNull();

    view.rerender(<QrCodeDialog connection={{ ...pairing, status: "PAIRING" }} onClose={onClose} />);
    expect(onClose).not.toHaveBeenCalled();
    view.rerender(<QrCodeDialog connection={{ ...pairing, status: "CONNECTED", pairingCode: "" }} onClose={onClose} />);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("says it waits for a pairing code when the session pairs by phone", async () => {
    await i18n.changeLanguage("en");
    fakeApi();
    await renderWithProviders(
      <QrCodeDialog connection={{ ...base, status: "OPENING", qrcode: "", pairingPhone: "5511999990000" }} onClose={() => {}} />,
    );
    expect(await screen.findByText("Waiting for the pairing code")).toBeInTheDocument();
  });

  it("closes once the phone paired by QR: the code goes away as the status turns PAIRING", async () => {
    await i18n.changeLanguage("en");
    fakeApi();
    const onClose = vi.fn();
    const view = await renderWithProviders(<QrCodeDialog connection={base} onClose={onClose} />);
    view.rerender(<QrCodeDialog connection={{ ...base, status: "PAIRING", qrcode: "" }} onClose={onClose} />);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe("QR code dialog when there is no code to show (issue 18 §1.3, issue 20 §2.8)", () => {
  const health = {
    lastEventAt: null,
    pendingEvents: 0,
    spooledEvents: 0,
    oldestPendingAt: null,
    reconnectsToday: 0,
    lastErrorAt: null,
  };
  const qr = aConnection({ status: "qrcode", qrcode: "https://wa.me/settings/linked_devices#ref,n,i,a,1" });

  it("the QR refs ran out: it stays open with the reason and one action, a new QR code", async () => {
    await i18n.changeLanguage("en");
    const api = fakeApi({ "PUT /api/whatsappsession/:id": { body: {} } });
    const onClose = vi.fn();
    const view = await renderWithProviders(<QrCodeDialog connection={qr} onClose={onClose} />);
    expect(await screen.findByRole("img", { name: "Scan this QR Code with WhatsApp on your phone" })).toBeInTheDocument();

    const stopped = {
      ...qr,
      status: "DISCONNECTED" as const,
      qrcode: "",
      statusReason: "QR_TIMEOUT" as const,
      health: { ...health, lastError: "Error: QR refs attempts ended" },
    };
    view.rerender(<QrCodeDialog connection={stopped} onClose={onClose} />);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByText("The QR code expired")).toBeInTheDocument();
    expect(screen.getByText("Last error: Error: QR refs attempts ended")).toBeInTheDocument();
    expect(screen.queryByText("Waiting for QR Code")).toBeNull();
    expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();

    await userEvent.click(screen.getByRole("button", { name: "New QR code" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/whatsappsession/3")).toHaveLength(1));
    // Pairs again as the connection is set to (no method change in the body).
    expect(api.callsTo("PUT", "/api/whatsappsession/3")[0].body).toBeUndefined();
  });

  it.each([
    [
      "PAIRING_CODE_REFUSED",
      "WhatsApp refused to give a pairing code",
      "WhatsApp refused the pairing code request: 400 bad-request",
    ],
    ["PAIRING_STALLED", "The link did not finish", "WhatsApp did not confirm the link within 60 s"],
  ] as const)(
    "a code pairing that ended with %s says why, WhatsApp's words, and offers a new code",
    async (reason, title, error) => {
      await i18n.changeLanguage("en");
      fakeApi();
      const pairing = aConnection({
        status: "DISCONNECTED",
        statusReason: reason,
        pairingPhone: "5511999990000",
        health: { ...health, lastError: error },
      });
      await renderWithProviders(<QrCodeDialog connection={pairing} onClose={() => {}} />);
      expect(await screen.findByText(title)).toBeInTheDocument();
      expect(screen.getByText(`Last error: ${error}`)).toBeInTheDocument();
      expect(screen.getByRole("button", { name: "New pairing code" })).toBeInTheDocument();
      expect(screen.queryByRole("img", { name: /Pairing code/ })).toBeNull();
    },
  );

  it("a link WhatsApp refused with the wrong secret asks for a new QR code", async () => {
    await i18n.changeLanguage("pt");
    fakeApi();
    await renderWithProviders(
      <QrCodeDialog connection={aConnection({ status: "DISCONNECTED", statusReason: "PAIRING_FAILED" })} onClose={() => {}} />,
    );
    expect(await screen.findByText("A conexão do celular foi recusada")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Novo QR code" })).toBeInTheDocument();
  });

  it("the server cannot reach WhatsApp: the last error and a retry, not an endless wait", async () => {
    await i18n.changeLanguage("en");
    const api = fakeApi({ "POST /api/whatsappsession/:id": { body: {} } });
    const unreachable = aConnection({
      status: "TIMEOUT",
      retries: 3,
      health: { ...health, lastError: "Error: WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)" },
    });
    const onClose = vi.fn();
    const view = await renderWithProviders(
      <QrCodeDialog connection={{ ...unreachable, status: "OPENING", retries: 0 }} onClose={onClose} />,
    );
    expect(await screen.findByText("Waiting for QR Code")).toBeInTheDocument();

    view.rerender(<QrCodeDialog connection={unreachable} onClose={onClose} />);
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("Zapdesk cannot reach WhatsApp");
    expect(alert).toHaveTextContent("3 failed attempts so far");
    expect(alert).toHaveTextContent("Last error: Error: WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)");
    expect(screen.queryByText("Waiting for QR Code")).toBeNull();

    // While it opens again after a failure, the failure stays on screen.
    view.rerender(<QrCodeDialog connection={{ ...unreachable, status: "OPENING" }} onClose={onClose} />);
    expect(screen.getByRole("alert")).toHaveTextContent("Zapdesk cannot reach WhatsApp");
    await userEvent.click(screen.getByRole("button", { name: "Try again now" }));
    await waitFor(() => expect(api.callsTo("POST", "/api/whatsappsession/3")).toHaveLength(1));
    expect(onClose).not.toHaveBeenCalled();
  });

  it("with no error reported yet it says where to look", async () => {
    await i18n.changeLanguage("es");
    fakeApi();
    await renderWithProviders(<QrCodeDialog connection={aConnection({ status: "TIMEOUT", retries: 1 })} onClose={() => {}} />);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("1 intento fallido hasta ahora");
    expect(alert).toHaveTextContent("web.whatsapp.com");
  });
});
