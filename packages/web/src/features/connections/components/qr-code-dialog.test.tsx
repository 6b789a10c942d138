import { screen } from "@testing-library/react";
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
    const view = renderWithProviders(<QrCodeDialog connection={base} onClose={onClose} />);
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
    renderWithProviders(<QrCodeDialog connection={{ ...base, status: "OPENING", qrcode: "" }} onClose={onClose} />);
    expect(await screen.findByText("Waiting for QR Code")).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it("shows the phone pairing code large, in two groups of four, and closes once the phone paired", async () => {
    await i18n.changeLanguage("en");
    fakeApi();
    const onClose = vi.fn();
    const pairing = { ...base, provider: "baileys" as const, qrcode: "", pairingCode: "K7QP2MZX", pairingPhone: "5511999990000" };
    const view = renderWithProviders(<QrCodeDialog connection={pairing} onClose={onClose} />);
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
    renderWithProviders(
      <QrCodeDialog connection={{ ...base, status: "OPENING", qrcode: "", pairingPhone: "5511999990000" }} onClose={() => {}} />,
    );
    expect(await screen.findByText("Waiting for the pairing code")).toBeInTheDocument();
  });
});
