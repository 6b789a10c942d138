export type Tree = { [key: string]: string | Tree };

export interface LanguageResources {
  translation: Tree;
  validation: Tree;
}

function merge(into: Tree, from: Tree): Tree {
  for (const [key, value] of Object.entries(from)) {
    const current = into[key];
    into[key] = typeof value === "object" && typeof current === "object" ? merge({ ...current }, value) : value;
  }
  return into;
}

/**
 * A feature keeps its strings in `locales/<lang>/features/<feature>.json`, merged into the
 * language's `translation` namespace: features grow side by side without editing one shared file.
 */
export function languageResources(translation: Tree, validation: Tree, features: Record<string, Tree>): LanguageResources {
  const merged = merge({}, translation);
  for (const path of Object.keys(features).sort()) merge(merged, features[path]);
  return { translation: merged, validation };
}
