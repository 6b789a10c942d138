import type { Template } from "@zapdesk/core";

/** A component's text (HEADER in TEXT format, FOOTER) as Meta synced it, or "". */
export function componentText(template: Template, type: "HEADER" | "FOOTER"): string {
  const component = template.components.find((c) => String(c.type).toUpperCase() === type);
  if (!component) return "";
  if (type === "HEADER" && component.format && String(component.format).toUpperCase() !== "TEXT") return "";
  return typeof component.text === "string" ? component.text : "";
}

/** `{{n}}` replaced by the n-th value; a blank value keeps its placeholder, so the preview shows what is missing. */
export function fillVariables(text: string, values: readonly string[]): string {
  return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (placeholder, n: string) => values[Number(n) - 1]?.trim() || placeholder);
}
