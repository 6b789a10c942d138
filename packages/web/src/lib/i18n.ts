import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import enTranslation from "../locales/en/translation.json";
import enValidation from "../locales/en/validation.json";
import esTranslation from "../locales/es/translation.json";
import esValidation from "../locales/es/validation.json";
import ptTranslation from "../locales/pt/translation.json";
import ptValidation from "../locales/pt/validation.json";

export const LANGUAGES = ["pt", "en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
const LOCALE_KEY = "i18nextLng";

type Tree = { [key: string]: string | Tree };

/**
 * A feature keeps its strings in `locales/<lang>/features/<feature>.json`, merged into the
 * language's `translation` namespace: features grow side by side without editing one shared file.
 */
const featureFiles = import.meta.glob<Tree>("../locales/*/features/*.json", { eager: true, import: "default" });

function merge(into: Tree, from: Tree): Tree {
  for (const [key, value] of Object.entries(from)) {
    const current = into[key];
    into[key] = typeof value === "object" && typeof current === "object" ? merge({ ...current }, value) : value;
  }
  return into;
}

function withFeatures(language: string, base: Tree): Tree {
  const merged = merge({}, base);
  for (const [path, tree] of Object.entries(featureFiles)) if (path.split("/")[2] === language) merge(merged, tree);
  return merged;
}

export const resources = {
  pt: { translation: withFeatures("pt", ptTranslation), validation: ptValidation },
  en: { translation: withFeatures("en", enTranslation), validation: enValidation },
  es: { translation: withFeatures("es", esTranslation), validation: esValidation },
};

function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(LOCALE_KEY)?.slice(0, 2);
    return (LANGUAGES as readonly string[]).includes(value ?? "") ? (value as Language) : "pt";
  } catch {
    return "pt";
  }
}

i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: "pt",
  supportedLngs: LANGUAGES,
  defaultNS: "translation",
  ns: ["translation", "validation"],
  interpolation: { escapeValue: false },
  returnNull: false,
});

i18n.on("languageChanged", (language) => {
  try {
    localStorage.setItem(LOCALE_KEY, language);
  } catch {
    // Private mode: the choice simply lasts until reload.
  }
  document.documentElement.lang = language;
});
document.documentElement.lang = i18n.language;

/** Core's validation messages are English sentences ('Too Short!'); the `validation` namespace is keyed by them. */
export function translateValidation(message: string | undefined): string | undefined {
  if (!message) return undefined;
  return i18n.t(message, { ns: "validation", keySeparator: false, nsSeparator: false, defaultValue: message });
}

export default i18n;
