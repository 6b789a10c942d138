import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Feature boundaries (docs/architecture.md): a feature never reaches into another feature's files.
 * Shared widgets and hooks go to `components/` or `lib/`; a feature may use another only through
 * its public `index.ts`. The imports below predate the rule: the list may only shrink (a line
 * that no longer exists fails too, so whoever removes one removes it here).
 */
const KNOWN_DEBT = [
  "conversation/components/message-bubble.tsx -> tickets/utils/ticket-preview",
  "dashboard/components/agents-load-card.tsx -> routing/api",
  "dashboard/components/agents-load-card.tsx -> routing/presence-dot",
  "notifications/components/notifications-bell.tsx -> tickets/utils/ticket-preview",
  "notifications/hooks/use-notification-handlers.ts -> tickets/utils/ticket-preview",
  "queues/components/queue-modal.tsx -> routing/auto-assign-fields",
  "routing/routing.test.tsx -> dashboard/components/agents-load-card",
  "shortcuts/keyboard-shortcuts.tsx -> contacts/components/contact-modal",
  "tags/api/tags-api.ts -> tickets/utils/ticket-list-cache",
  "tags/components/board-card.tsx -> tickets/utils/ticket-preview",
  "tags/components/tag-filter.test.tsx -> tickets/components/tickets-manager",
  "tags/pages/board-page.tsx -> tickets/api/get-tickets",
  "tags/pages/board-page.tsx -> tickets/api/ticket-keys",
  "tickets/components/contact-drawer.tsx -> tags/components/contact-tags",
  "tickets/components/next-ticket.test.tsx -> shortcuts/test-fixtures",
  "tickets/components/ticket-actions.tsx -> conversation/utils/export-csv",
  "tickets/components/ticket-actions.tsx -> shortcuts/use-ticket-shortcuts",
  "tickets/components/ticket-header.tsx -> tags/components/ticket-tags",
  "tickets/components/ticket-row.tsx -> tags/components/tag-chip",
  "tickets/components/tickets-list.tsx -> routing/choosing-group",
  "tickets/components/tickets-manager.tsx -> tags/components/tag-filter",
  "tickets/components/transfer-ticket-modal.tsx -> routing/transfer-agent-list",
  "tools/pages/schedule-page.tsx -> schedules/pages/schedules-page",
  "users/components/user-modal.tsx -> routing/auto-assign-fields",
];

const FEATURES = dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** Every import of one feature's file that lands in another feature, as "file -> target". */
function crossFeatureImports(): string[] {
  const found: string[] = [];
  for (const file of sources(FEATURES)) {
    const own = relative(FEATURES, file).split(sep)[0];
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']*)["']/g)) {
      const target = relative(FEATURES, normalize(join(dirname(file), match[1]))).split(sep);
      if (target[0] === ".." || target[0] === own || target[0] === "") continue;
      const path = target.join("/").replace(/\/index$/, "");
      found.push(`${relative(FEATURES, file).split(sep).join("/")} -> ${path}`);
    }
  }
  return [...new Set(found)].sort();
}

describe("feature boundaries", () => {
  it("no feature imports another feature's files (beyond the known debt, which only shrinks)", () => {
    const found = crossFeatureImports();
    const fresh = found.filter((line) => !KNOWN_DEBT.includes(line) && !/ -> [^/]+$/.test(line));
    expect(fresh, "import through components/, lib/ or the feature's index.ts instead").toEqual([]);
    const gone = KNOWN_DEBT.filter((line) => !found.includes(line));
    expect(gone, "no longer imported: remove from KNOWN_DEBT").toEqual([]);
  });
});
