import { useQueryClient } from "@tanstack/react-query";
import type { RealtimePayloads } from "@zapdesk/core";
import { useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { mentionKeys } from "../api/get-mentions";
import { preferenceKeys, preferencesOrDefault } from "../api/preferences";
import { mentionLink } from "../components/mention-items";
import { playChime, showBrowserNotification } from "../utils/alert";

/**
 * Issue 11: a note mentioned this user (the server sends it to them alone): the bell counts it
 * and a browser notification opens the ticket at the note.
 */
export function useMentionHandler(onOpen: (link: string) => void) {
  const client = useQueryClient();
  const { t } = useTranslation();
  const latest = useRef(onOpen);
  latest.current = onOpen;
  return useMemo(
    () => (event: RealtimePayloads["noteMention"]) => {
      const { mention } = event;
      client.invalidateQueries({ queryKey: mentionKeys.all });
      // Issue 13: the user's sound and desktop switches apply to mentions too.
      const prefs = preferencesOrDefault(client.getQueryData(preferenceKeys.mine));
      if (prefs.sound) playChime();
      if (!prefs.desktop) return;
      showBrowserNotification(
        t("notes.mentionNotification", { name: mention.author?.name ?? t("notes.unknownAuthor"), contact: mention.contact.name }),
        mention.body,
        `mention-${mention.id}`,
        () => latest.current(mentionLink(mention)),
      );
    },
    [client, t],
  );
}
