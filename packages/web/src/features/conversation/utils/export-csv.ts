import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { Message } from "@zapdesk/core";
import { getMessages, type MessagePage } from "../api/get-messages";
import { messageKeys } from "../api/message-keys";

/** Spec §2: the columns of 'EXPORTAR CONVERSAS'. */
export const CSV_COLUMNS = ["body", "id", "fromMe", "quoted", "isDel", "mediaUrl", "type", "created"] as const;

const cell = (value: unknown) => {
  const text = value === null || value === undefined ? "" : String(value);
  // Quote everything and neutralise spreadsheet formulas (a body may start with '=').
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
};

/** Issue 11: a private note keeps the spec's columns and says what it is in `type`. */
export const NOTE_CSV_TYPE = "note";

export function messagesToCsv(messages: Message[]): string {
  const rows = messages.map((m) =>
    [
      m.body,
      m.id,
      m.fromMe,
      m.quotedMsg?.body ?? "",
      m.isDeleted,
      m.mediaUrl ?? "",
      m.isNote ? NOTE_CSV_TYPE : m.mediaType,
      m.createdAt,
    ]
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

/**
 * Issue 13: the export lives in the ticket's menu, away from the messages: it writes the messages
 * this browser has loaded for the ticket (every page scrolled through, in order), or the newest page.
 */
export async function exportConversation(client: QueryClient, ticketId: number): Promise<void> {
  const cached = client.getQueriesData<InfiniteData<MessagePage>>({ queryKey: messageKeys.list(ticketId) });
  const byId = new Map<number, Message>();
  for (const [, data] of cached) for (const page of data?.pages ?? []) for (const m of page.messages) byId.set(m.id, m);
  if (byId.size === 0) for (const m of (await getMessages(ticketId, 1)).messages) byId.set(m.id, m);
  const messages = [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
  downloadCsv(`conversa-${ticketId}.csv`, messagesToCsv(messages));
}
