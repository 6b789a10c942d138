import type { QueryClient } from "@tanstack/react-query";
import type { Connection, Contact, Queue, QuickAnswer, RealtimePayloads, Setting, User } from "@zapdesk/core";
import { refreshContactCopies } from "./contact-copies";
import { removeFromArray, removeFromPages, textMatches, upsertInArray, upsertInPages } from "./list-cache";
import { queryKeys } from "./query-keys";
import { updateQueries } from "./query-updates";

const listOf = (all: readonly string[]) => [...all, "list"];

/** A ticket list of "my customers" (issue 23 §5; features/tickets/api/ticket-keys.ts). */
const isMyCustomersList = (key: readonly unknown[]) =>
  key[0] === "tickets" && key[1] === "list" && !!(key[2] as { myCustomers?: boolean } | undefined)?.myCustomers;

type ListEvent = "user" | "contact" | "quickAnswer" | "queue" | "settings" | "whatsapp" | "whatsappSession";
export type ListEventHandlers = { [K in ListEvent]: (event: RealtimePayloads[K]) => void };

/**
 * What each list event does to the query cache (spec §4 "Lists"): create and
 * update insert or replace, delete removes. Pure cache work, so it is tested
 * without a socket; useRealtimeSync only wires it to one.
 */
export function listEventHandlers(client: QueryClient, onSelfUpdated?: (user: User) => void, selfId?: number): ListEventHandlers {
  return {
    user(event) {
      if (event.action === "delete") return removeFromPages(client, listOf(queryKeys.users.all), "users", event.userId);
      upsertInPages<"users", User>(client, listOf(queryKeys.users.all), "users", event.user, (u, s) =>
        textMatches(s, u.name, u.email),
      );
      if (event.user.id === selfId) onSelfUpdated?.(event.user);
    },
    contact(event) {
      // Issue 23 §5: lists filtered by owner cannot tell from the event whether a contact belongs: refetched.
      void client.invalidateQueries({ queryKey: ["contacts", "owned"] });
      if (event.action === "update") void client.invalidateQueries({ predicate: (q) => isMyCustomersList(q.queryKey) });
      if (event.action === "delete") {
        client.removeQueries({ queryKey: queryKeys.contacts.detail(event.contactId) });
        return removeFromPages(client, listOf(queryKeys.contacts.all), "contacts", event.contactId);
      }
      upsertInPages<"contacts", Contact>(client, listOf(queryKeys.contacts.all), "contacts", event.contact, (c, s) =>
        textMatches(s, c.name, c.number, c.email),
      );
      updateQueries<Contact>(client, { queryKey: queryKeys.contacts.detail(event.contact.id), exact: true }, (old) => ({
        ...old,
        ...event.contact,
      }));
      if (event.action === "update") refreshContactCopies(client, event.contact);
    },
    quickAnswer(event) {
      const key = listOf(queryKeys.quickAnswers.all);
      if (event.action === "delete") return removeFromPages(client, key, "quickAnswers", event.quickAnswerId);
      upsertInPages<"quickAnswers", QuickAnswer>(client, key, "quickAnswers", event.quickAnswer, (q, s) =>
        textMatches(s, q.shortcut, q.message),
      );
    },
    queue(event) {
      if (event.action === "delete") return removeFromArray<Queue>(client, queryKeys.queues.all, event.queueId);
      upsertInArray<Queue>(client, queryKeys.queues.all, event.queue);
    },
    settings(event) {
      const replace = (list: Setting[]) =>
        list.some((s) => s.key === event.setting.key)
          ? list.map((s) => (s.key === event.setting.key ? event.setting : s))
          : [...list, event.setting];
      updateQueries<Setting[]>(client, { queryKey: queryKeys.settings.all, exact: true }, replace);
      // Only keys the public list already carries: it must not grow private settings.
      updateQueries<Setting[]>(client, { queryKey: queryKeys.publicSettings.all, exact: true }, (list) =>
        list.some((s) => s.key === event.setting.key) ? replace(list) : list,
      );
    },
    whatsapp(event) {
      if (event.action === "delete") return removeFromArray<Connection>(client, queryKeys.whatsapps.all, event.whatsappId);
      upsertInArray<Connection>(client, queryKeys.whatsapps.all, event.whatsapp);
    },
    whatsappSession(event) {
      // The whole presented connection: status with its reason, QR or pairing code, health.
      const session = event.session;
      updateQueries<Connection[]>(client, { queryKey: queryKeys.whatsapps.all, exact: true }, (list) =>
        list.map((w) => (w.id === session.id ? { ...w, ...session } : w)),
      );
    },
  };
}
