import LockIcon from "@mui/icons-material/Lock";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import InputBase from "@mui/material/InputBase";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { DEBOUNCE_MS, type Mentionable } from "@zapdesk/core";
import { type KeyboardEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useDebounce } from "../../../lib/use-debounce";
import { searchMentionable, useSendNote } from "../api/note-commands";
import { insertMention, mentionedIds, mentionQuery } from "../utils/mentions";
import { NOTE_COLORS } from "./note-bubble";

interface MentionPickerProps {
  ticketId: number;
  search: string;
  active: number;
  /** Where the picker leaves the colleagues it shows, for the composer's arrow keys and Enter. */
  offered: { current: Mentionable[] };
  onPick(user: Mentionable): void;
}

function MentionPicker(props: MentionPickerProps) {
  const { t } = useTranslation();
  const debounced = useDebounce(props.search, DEBOUNCE_MS, props.search);
  const { data: found = [] } = useQuery({
    queryKey: ["notes", "mentionable", props.ticketId, debounced],
    queryFn: () => searchMentionable(props.ticketId, debounced),
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
  // The last answer stays while the next search waits: keep only those the typed text still matches.
  const typed = props.search.toLowerCase();
  const data = found.filter((user) => user.name.toLowerCase().includes(typed));
  props.offered.current = data;
  return (
    <Paper
      elevation={3}
      sx={{ position: "absolute", bottom: "100%", left: 8, width: 280, maxHeight: 240, overflowY: "auto", zIndex: 2 }}
    >
      {data.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ p: 1.5 }}>
          {t("notes.noColleague")}
        </Typography>
      ) : (
        <List dense aria-label={t("notes.mentionList")} role="listbox">
          {data.map((user, index) => (
            <ListItemButton
              key={user.id}
              role="option"
              selected={index === props.active}
              aria-selected={index === props.active}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => props.onPick(user)}
            >
              @{user.name}
            </ListItemButton>
          ))}
        </List>
      )}
    </Paper>
  );
}

/**
 * The private-note composer (issue 11): amber like the notes it writes, saying who will see it,
 * with an @ picker of colleagues who may see the ticket. Enter adds the note; Shift+Enter breaks the line.
 */
export function NoteComposer({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [caret, setCaret] = useState(0);
  const [picked, setPicked] = useState<Mentionable[]>([]);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const offered = useRef<Mentionable[]>([]);
  const input = useRef<HTMLTextAreaElement>(null);
  const send = useSendNote(ticketId);
  const query = mentionQuery(text, caret);
  const picking = query !== null && dismissed !== query.start;

  const pick = (user: Mentionable) => {
    if (!query) return;
    const next = insertMention(text, query.start, caret, user.name);
    setText(next.text);
    setCaret(next.caret);
    setPicked((current) => [...current.filter((u) => u.id !== user.id), user]);
    setActive(0);
    requestAnimationFrame(() => input.current?.setSelectionRange(next.caret, next.caret));
  };

  const submit = () => {
    const body = text.trim();
    if (!body || send.isPending) return;
    send.mutate(
      { body, mentions: mentionedIds(body, picked) },
      {
        onSuccess: () => {
          setText("");
          setCaret(0);
          setPicked([]);
        },
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (picking && offered.current.length) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActive((i) => (i + step + offered.current.length) % offered.current.length);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        pick(offered.current[Math.min(active, offered.current.length - 1)]);
        return;
      }
      if (event.key === "Escape") {
        setDismissed(query.start);
        return;
      }
    }
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <Box data-testid="note-composer" sx={{ bgcolor: NOTE_COLORS.background, borderTop: 2, borderColor: NOTE_COLORS.border }}>
      <Typography
        variant="caption"
        component="p"
        sx={{ display: "flex", alignItems: "center", gap: 0.5, px: 1.5, pt: 0.75, color: NOTE_COLORS.label, fontWeight: 600 }}
      >
        <LockIcon sx={{ fontSize: 14 }} /> {t("notes.composerHint")}
      </Typography>
      <Box sx={{ display: "flex", alignItems: "flex-end", gap: 1, p: 1, position: "relative" }}>
        {picking && <MentionPicker ticketId={ticketId} search={query.query} active={active} offered={offered} onPick={pick} />}
        <InputBase
          multiline
          maxRows={5}
          autoFocus
          inputRef={input}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setCaret(e.target.selectionStart ?? e.target.value.length);
            setActive(0);
          }}
          onSelect={(e) => setCaret((e.target as HTMLTextAreaElement).selectionStart ?? text.length)}
          onKeyDown={onKeyDown}
          placeholder={t("notes.placeholder")}
          slotProps={{ input: { "aria-label": t("notes.placeholder") } }}
          sx={{ flex: 1, bgcolor: NOTE_COLORS.input, borderRadius: 2, px: 2, py: 1, border: 1, borderColor: NOTE_COLORS.border }}
        />
        <Button
          variant="contained"
          color="warning"
          onClick={submit}
          disabled={!text.trim() || send.isPending}
          startIcon={<LockIcon />}
        >
          {t("notes.add")}
        </Button>
      </Box>
    </Box>
  );
}
