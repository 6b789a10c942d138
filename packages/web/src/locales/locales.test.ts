import { ERROR_CODES, MSG } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { loadLanguage } from "../lib/i18n";

function keys(node: unknown, prefix = ""): string[] {
  if (typeof node !== "object" || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

const resources = {
  pt: await loadLanguage("pt"),
  en: await loadLanguage("en"),
  es: await loadLanguage("es"),
};

describe("locale resources", () => {
  const pt = keys(resources.pt.translation).sort();
  for (const lang of ["en", "es"] as const) {
    it(`${lang} has exactly the keys of pt`, () => {
      expect(keys(resources[lang].translation).sort()).toEqual(pt);
      expect(Object.keys(resources[lang].validation).sort()).toEqual(Object.keys(resources.pt.validation).sort());
    });
  }

  for (const lang of ["pt", "en", "es"] as const) {
    it(`${lang} translates every error code and every core validation message`, () => {
      const errors = resources[lang].translation.backendErrors as Record<string, string>;
      for (const code of ERROR_CODES) expect(errors[code], code).toBeTruthy();
      const validation = resources[lang].validation as Record<string, string>;
      for (const message of Object.values(MSG)) expect(validation[message], message).toBeTruthy();
    });
  }
});
