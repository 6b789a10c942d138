import { describe, expect, it } from "vitest";
import { contentDisposition } from "./send-media.js";

describe("a served file's Content-Disposition", () => {
  it("keeps a plain name as it is", () => {
    expect(contentDisposition("inline", "foto.png")).toBe(`inline; filename="foto.png"; filename*=UTF-8''foto.png`);
  });

  it("lets nothing in the name end or escape the quoted fallback, and gives the exact name encoded", () => {
    expect(contentDisposition("attachment", 'nota "fiscal"\\2026.pdf')).toBe(
      `attachment; filename="nota _fiscal__2026.pdf"; filename*=UTF-8''nota%20%22fiscal%22%5C2026.pdf`,
    );
  });

  it("encodes what RFC 8187 does not allow unencoded, and names outside ASCII", () => {
    expect(contentDisposition("attachment", "recibo (d'água)*.pdf")).toBe(
      `attachment; filename="recibo (d'_gua)*.pdf"; filename*=UTF-8''recibo%20%28d%27%C3%A1gua%29%2A.pdf`,
    );
    expect(contentDisposition("attachment", "a\r\nb")).toBe(`attachment; filename="a__b"; filename*=UTF-8''a%0D%0Ab`);
  });
});
