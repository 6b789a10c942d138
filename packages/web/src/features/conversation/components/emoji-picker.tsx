import MoodIcon from "@mui/icons-material/Mood";
import IconButton from "@mui/material/IconButton";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { lazyNamed, OnDemand } from "../../../components/ui/on-demand";

const EmojiPalette = lazyNamed(() => import("./emoji-palette"), "EmojiPalette");

/** A small built-in palette: enough for support replies without shipping an emoji database. */
export function EmojiPicker({ onPick, disabled }: { onPick(emoji: string): void; disabled?: boolean }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton aria-label={t("conversation.input.emoji")} disabled={disabled} onClick={(e) => setAnchor(e.currentTarget)}>
        <MoodIcon />
      </IconButton>
      <OnDemand when={!!anchor}>
        <EmojiPalette anchor={anchor} onClose={() => setAnchor(null)} onPick={onPick} />
      </OnDemand>
    </>
  );
}
