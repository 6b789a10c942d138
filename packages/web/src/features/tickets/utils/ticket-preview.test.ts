import { PLACEHOLDER_PREVIEW } from "@zapdesk/core";
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
