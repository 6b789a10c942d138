import type { Contact } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import type { Page } from "../../../lib/list-cache";

/** All contacts matching the search, page by page (the export is of the whole list, not only what is scrolled into view). */
export async function fetchAllContacts(search: string): Promise<Contact[]> {
  const all: Contact[] = [];
  for (let pageNumber = 1; pageNumber <= 1000; pageNumber++) {
    const page = await api.get<Page<"contacts", Contact>>("/contacts", { searchParam: search, pageNumber });
    all.push(...page.contacts);
    if (!page.hasMore) break;
  }
  return all;
}

/** Spec §2: semicolon-separated, columns name, number, email, file zdg.csv. */
export function contactsToCsv(contacts: Pick<Contact, "name" | "number" | "email">[]): string {
  const cell = (value: string) => (/[;"\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  const lines = [["name", "number", "email"], ...contacts.map((c) => [c.name, c.number, c.email ?? ""])];
  return lines.map((line) => line.map(cell).join(";")).join("\n");
}

export function downloadCsv(csv: string, fileName = "zdg.csv"): void {
  // The BOM makes spreadsheet programs read accented names as UTF-8.
  const url = URL.createObjectURL(new Blob(["\uFEFF", csv], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
