import { CONTACT_PREVIEW_MARK, LOCATION_PREVIEW_MARK, PLACEHOLDER_PREVIEW } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { messagePreview, ticketPreview } from "./ticket-preview";

describe("previews of a message WhatsApp could not decrypt yet", () => {
  it.each([
    ["pt", "⌛ Aguardando mensagem do celular do cliente"],
    ["en", "⌛ Waiting for a message from the customer's phone"],
    ["es", "⌛ Esperando un mensaje del teléfono del cliente"],
  ])("read in the agent's language (%s); any other preview as it is", async (language, text) => {
    await i18n.changeLanguage(language);
    expect(ticketPreview(PLACEHOLDER_PREVIEW, i18n.t)).toBe(text);
    expect(messagePreview({ mediaType: "placeholder", body: "" }, i18n.t)).toBe(text);
    // A customer who sends a bare hourglass is not taken for a placeholder.
    expect(ticketPreview("⌛", i18n.t)).toBe("⌛");
    expect(messagePreview({ mediaType: "chat", body: "olá" }, i18n.t)).toBe("olá");
  });
});

describe("previews of a shared contact and a location (issue 20 §2.2)", () => {
  const vcard = "BEGIN:VCARD\nVERSION:3.0\nFN:Ana Souza\nTEL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD";
  const location = "|https://maps.google.com/maps?q=-23.55%2C-46.63|Avenida Paulista, 1000\nSão Paulo";
  it.each([
    ["pt", "Contato: Ana Souza", "Localização: Avenida Paulista, 1000", "Localização"],
    ["en", "Contact: Ana Souza", "Location: Avenida Paulista, 1000", "Location"],
    ["es", "Contacto: Ana Souza", "Ubicación: Avenida Paulista, 1000", "Ubicación"],
  ])("name them in the agent's language (%s), never the raw body", async (language, contact, place, bare) => {
    await i18n.changeLanguage(language);
    expect(ticketPreview(`${CONTACT_PREVIEW_MARK}Ana Souza`, i18n.t)).toBe(contact);
    expect(ticketPreview(`${LOCATION_PREVIEW_MARK}Avenida Paulista, 1000`, i18n.t)).toBe(place);
    expect(ticketPreview(LOCATION_PREVIEW_MARK, i18n.t)).toBe(bare);
    expect(messagePreview({ mediaType: "vcard", body: vcard }, i18n.t)).toBe(contact);
    expect(messagePreview({ mediaType: "location", body: location }, i18n.t)).toBe(place);
    // A customer who types the emoji is not taken for a shared contact.
    expect(ticketPreview("👤 hi", i18n.t)).toBe("👤 hi");
  });
});
