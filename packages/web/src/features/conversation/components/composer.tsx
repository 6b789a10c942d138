import ChatIcon from "@mui/icons-material/ChatBubbleOutlineOutlined";
import LockIcon from "@mui/icons-material/LockOutlined";
import Box from "@mui/material/Box";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import { type ComponentProps, useState } from "react";
import { useTranslation } from "react-i18next";
import { MessageInput } from "./message-input";
import { NOTE_COLORS } from "./note-bubble";
import { NoteComposer } from "./note-composer";

export type ComposerMode = "reply" | "note";

/**
 * Issue 11: the conversation's composer with a clear Reply / Private note switch, so a note is
 * never sent to the customer by mistake. A note can be written on a ticket in any status;
 * a ticket that left this user's reach takes neither.
 */
export function Composer(props: ComponentProps<typeof MessageInput>) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<ComposerMode>("reply");
  if (props.movedAway) return <MessageInput {...props} />;
  return (
    <Box>
      <Tabs
        value={mode}
        onChange={(_e, value: ComposerMode) => setMode(value)}
        aria-label={t("notes.modeLabel")}
        sx={{
          minHeight: 32,
          borderTop: 1,
          borderColor: "divider",
          bgcolor: mode === "note" ? NOTE_COLORS.background : "background.paper",
          "& .MuiTab-root": { minHeight: 32, py: 0.5, textTransform: "none" },
          "& .MuiTabs-indicator": { bgcolor: mode === "note" ? NOTE_COLORS.border : undefined },
        }}
      >
        <Tab value="reply" label={t("notes.modeReply")} icon={<ChatIcon fontSize="small" />} iconPosition="start" />
        <Tab value="note" label={t("notes.modeNote")} icon={<LockIcon fontSize="small" />} iconPosition="start" />
      </Tabs>
      {mode === "note" ? <NoteComposer ticketId={props.ticket.id} /> : <MessageInput {...props} />}
    </Box>
  );
}
