import MoodIcon from "@mui/icons-material/Mood";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Popover from "@mui/material/Popover";
import { useState } from "react";
import { useTranslation } from "react-i18next";

const EMOJIS = [
  "😀",
  "😁",
  "😂",
  "🤣",
  "😊",
  "😍",
  "😘",
  "😉",
  "😎",
  "🤔",
  "😅",
  "😢",
  "😭",
  "😡",
  "😱",
  "🙄",
  "👍",
  "👎",
  "👏",
  "🙏",
  "👋",
  "🤝",
  "💪",
  "👌",
  "✌️",
  "🤞",
  "❤️",
  "💔",
  "🔥",
  "⭐",
  "✅",
  "❌",
  "🎉",
  "🎁",
  "📦",
  "📞",
  "📷",
  "📄",
  "💰",
  "🕒",
  "🚚",
  "🏠",
  "☕",
  "🍕",
  "⚠️",
  "❓",
  "❗",
  "💬",
];

/** A small built-in palette: enough for support replies without shipping an emoji database. */
export function EmojiPicker({ onPick, disabled }: { onPick(emoji: string): void; disabled?: boolean }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton aria-label={t("conversation.input.emoji")} disabled={disabled} onClick={(e) => setAnchor(e.currentTarget)}>
        <MoodIcon />
      </IconButton>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "top", horizontal: "left" }}
        transformOrigin={{ vertical: "bottom", horizontal: "left" }}
      >
        <Box
          sx={{ display: "grid", gridTemplateColumns: "repeat(8, 36px)", p: 1 }}
          role="listbox"
          aria-label={t("conversation.input.emoji")}
        >
          {EMOJIS.map((emoji) => (
            <IconButton
              key={emoji}
              role="option"
              aria-label={emoji}
              onClick={() => onPick(emoji)}
              sx={{ fontSize: 20, width: 36, height: 36 }}
            >
              {emoji}
            </IconButton>
          ))}
        </Box>
      </Popover>
    </>
  );
}
