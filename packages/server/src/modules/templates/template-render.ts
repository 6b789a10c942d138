/**
 * Meta's templates carry their text in components (HEADER with format TEXT, BODY, FOOTER), with
 * variables written {{1}}, {{2}}… or, for templates with named parameters, {{first_name}}. These
 * helpers count the variables, render the text kept in the history, and build the components
 * Meta expects in a template send.
 */

type Component = Record<string, unknown>;

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

function component(components: Component[], type: string): Component | undefined {
  return components.find((c) => String(c.type ?? "").toUpperCase() === type);
}

function textOf(c: Component | undefined): string {
  return typeof c?.text === "string" ? c.text : "";
}

/** The distinct variables of a text, in order of first appearance. */
export function variablesOf(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) if (!names.includes(match[1])) names.push(match[1]);
  return names;
}

export function templateTexts(components: Component[]) {
  const header = component(components, "HEADER");
  const headerText = String(header?.format ?? "").toUpperCase() === "TEXT" ? textOf(header) : "";
  return { headerText, bodyText: textOf(component(components, "BODY")), footerText: textOf(component(components, "FOOTER")) };
}

function fill(text: string, names: string[], values: string[]): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const index = names.indexOf(name);
    return index >= 0 && values[index] !== undefined ? values[index] : whole;
  });
}

/** The text a customer sees, for the history and the ticket list: header, body and footer. */
export function renderTemplate(components: Component[], bodyParams: string[], headerParams: string[]): string {
  const { headerText, bodyText, footerText } = templateTexts(components);
  const header = fill(headerText, variablesOf(headerText), headerParams);
  const body = fill(bodyText, variablesOf(bodyText), bodyParams);
  return [header && `*${header}*`, body, footerText].filter(Boolean).join("\n\n");
}

/** A positional variable is a number; a named one needs `parameter_name` in the send. */
function parameters(names: string[], values: string[]) {
  return values.map((text, i) => ({
    type: "text",
    text,
    ...(/^\d+$/.test(names[i] ?? "") ? {} : { parameter_name: names[i] }),
  }));
}

/** The `components` of POST /messages for type "template": header and body parameters as text. */
export function sendComponents(components: Component[], bodyParams: string[], headerParams: string[]): Component[] {
  const { headerText, bodyText } = templateTexts(components);
  const out: Component[] = [];
  if (headerParams.length) out.push({ type: "header", parameters: parameters(variablesOf(headerText), headerParams) });
  if (bodyParams.length) out.push({ type: "body", parameters: parameters(variablesOf(bodyText), bodyParams) });
  return out;
}
