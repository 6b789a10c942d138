import Box from "@mui/material/Box";
import Tooltip from "@mui/material/Tooltip";
import type { Reaction } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

/** The same emoji from several people is one chip with a count; the tooltip and label say who. */
function group(reactions: Reaction[], you: string) {
  const byEmoji = new Map<string, string[]>();
  for (const reaction of reactions) {
    const who = reaction.fromMe ? you : reaction.name;
    byEmoji.set(reaction.emoji, [...(byEmoji.get(reaction.emoji) ?? []), who]);
  }
  return [...byEmoji.entries()].map(([emoji, names]) => ({ emoji, names }));
}

/** Reactions shown under the message they were put on, as WhatsApp shows them. */
export function ReactionsBar({ reactions, mine }: { reactions: Reaction[]; mine: boolean }) {
  const { t } = useTranslation();
  if (reactions.length === 0) return null;
  const groups = group(reactions, t("conversation.reactions.you"));
  return (
    <Box
      role="list"
      aria-label={t("conversation.reactions.label")}
      sx={{ display: "flex", gap: 0.5, justifyContent: mine ? "flex-end" : "flex-start", mt: -0.5, mb: 0.25, px: 1 }}
    >
      {groups.map(({ emoji, names }) => {
        const label = t("conversation.reactions.item", { emoji, names: names.join(", ") });
        return (
          <Tooltip key={emoji} title={names.join(", ")}>
            <Box
              role="listitem"
              aria-label={label}
              sx={{
                bgcolor: "background.paper",
                borderRadius: 4,
                boxShadow: 1,
                px: 0.75,
                fontSize: 14,
                lineHeight: "22px",
                display: "inline-flex",
                gap: 0.25,
              }}
            >
              <span aria-hidden>{emoji}</span>
              {names.length > 1 && (
                <Box component="span" aria-hidden sx={{ fontSize: 12, color: "text.secondary" }}>
                  {names.length}
                </Box>
              )}
            </Box>
          </Tooltip>
        );
      })}
    </Box>
  );
}
