import { languageResources, type Tree } from "../bundle";
import translation from "./translation.json";
import validation from "./validation.json";

/** One chunk per language: the app loads the active one before its first render, the others on a switch. */
export default languageResources(
  translation,
  validation,
  import.meta.glob<Tree>("./features/*.json", { eager: true, import: "default" }),
);
