import type { Message } from "@zapdesk/core";

/** Spec §2: the columns of 'EXPORTAR CONVERSAS'. */
export const CSV_COLUMNS = ["body", "id", "fromMe", "quoted", "isDel", "mediaUrl", "type", "created"] as const;

const cell = (value: unknown) => {
  const text = value === null || value === undefined ? "" : String(value);
  // Quote everything and neutralise spreadsheet formulas (a body may start with '=').
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
};

export function messagesToCsv(messages: Message[]): string {
  const rows = messages.map((m) =>
    [m.body, m.id, m.fromMe, m.quotedMsg?.body ?? "", m.isDeleted, m.mediaUrl ?? "", m.mediaType, m.createdAt]
      .map(cell)
      .join(","),
  );
  return [CSV_COLUMNS.join(","), ...rows].join("\r\n");
}

export function downloadCsv(filename: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([`\uFEFF${csv}`], { type: "text/csv;charset=utf-8" }));
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = filename;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
