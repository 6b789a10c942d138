import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import type { LanguageResources } from "../locales/bundle";

export const LANGUAGES = ["pt", "en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
const LOCALE_KEY = "i18nextLng";

/** Each language is a chunk of its own (`locales/<lang>/index.ts`): only the ones in use are fetched. */
const languageChunks = import.meta.glob<LanguageResources>("../locales/*/index.ts", { import: "default" });
const loaded = new Map<string, Promise<LanguageResources>>();

/** The `translation` and `validation` namespaces of one language, fetched once. */
export function loadLanguage(language: string): Promise<LanguageResources> {
  const chunk = languageChunks[`../locales/${language}/index.ts`];
  if (!chunk) return Promise.reject(new Error(`no translations for ${language}`));
  let pending = loaded.get(language);
  if (!pending) {
    pending = chunk();
    // A failed fetch may be retried (i18next asks again).
    pending.catch(() => loaded.delete(language));
    loaded.set(language, pending);
  }
  return pending;
}

/**
 * i18next asks this backend for a language before switching to it, so `changeLanguage` resolves
 * (and the texts change) only once the new strings are in: no raw keys in between.
 */
const chunkBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language, namespace, callback) {
    loadLanguage(language).then(
      (resources) => callback(null, resources[namespace as keyof LanguageResources]),
      (error: Error) => callback(error, null),
    );
  },
};

function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(LOCALE_KEY)?.slice(0, 2);
    return (LANGUAGES as readonly string[]).includes(value ?? "") ? (value as Language) : "pt";
  } catch {
    return "pt";
  }
}

/** Resolves once the stored language (and the fallback) is loaded: main awaits it before the first render. */
export const i18nReady = i18n
  .use(chunkBackend)
  .use(initReactI18next)
  .init({
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
i18nReady.then(() => {
  document.documentElement.lang = i18n.language;
});

/** Core's validation messages are English sentences ('Too Short!'); the `validation` namespace is keyed by them. */
export function translateValidation(message: string | undefined): string | undefined {
  if (!message) return undefined;
  return i18n.t(message, { ns: "validation", keySeparator: false, nsSeparator: false, defaultValue: message });
}

export default i18n;
