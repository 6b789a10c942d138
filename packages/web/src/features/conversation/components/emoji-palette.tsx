import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Popover from "@mui/material/Popover";
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

/** The emoji palette: loaded the first time the picker opens. */
export function EmojiPalette({
  anchor,
  onClose,
  onPick,
}: {
  anchor: HTMLElement | null;
  onClose(): void;
  onPick(emoji: string): void;
}) {
  const { t } = useTranslation();
  return (
    <Popover
      open={!!anchor}
      anchorEl={anchor}
      onClose={onClose}
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
  );
}
