import { screen } from "@testing-library/react";
import type { Connection } from "@zapdesk/core";
import { describe, expect, it, vi } from "vitest";
import i18n from "../../../lib/i18n";
import { fakeApi } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { QrCodeDialog } from "./qr-code-dialog";

const base: Connection = {
  id: 3,
  name: "Front desk",
  provider: "simulator",
  status: "qrcode",
  qrcode: "2@abc,def,ghi",
  retries: 0,
  isDefault: true,
  greetingMessage: "",
  farewellMessage: "",
  updatedAt: "2026-01-01T10:00:00.000Z",
  queues: [],
};

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
});
