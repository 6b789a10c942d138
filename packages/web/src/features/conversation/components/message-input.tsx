import CloseIcon from "@mui/icons-material/Close";
import SendIcon from "@mui/icons-material/Send";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import InputBase from "@mui/material/InputBase";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import type { Message, Ticket } from "@zapdesk/core";
import { type ClipboardEvent, type DragEvent, type KeyboardEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { capabilitiesOf } from "../../../lib/capabilities";
import { useSendMessage } from "../api/message-commands";
import { useServiceWindow } from "../hooks/use-service-window";
import { signed, useSignOption } from "../hooks/use-sign-option";
import { useTypingSignal } from "../hooks/use-typing-signal";
import { AttachmentsPreview } from "./attachments-preview";
import { ComposerExtras } from "./composer-extras";
import { EmojiPicker } from "./emoji-picker";
import { QuickAnswersList } from "./quick-answers-list";
import { ServiceWindowBanner } from "./service-window-banner";
import { TemplateComposer } from "./template-composer";
import { VoiceRecorder } from "./voice-recorder";

interface MessageInputProps {
  /** The connection and last customer message decide typing and the 24-hour window (Cloud API). */
  ticket: Pick<Ticket, "id" | "status"> & Partial<Pick<Ticket, "whatsapp" | "lastInboundAt" | "user">>;
  replyTo: Message | null;
  onCancelReply(): void;
  /** The ticket left this user's hands while open here (a transfer, out of reach): no more sending. */
  movedAway?: boolean;
}

/** Spec §4/§5: only an open ticket takes messages; Enter sends, Shift+Enter breaks the line. */
export function MessageInput({ ticket, replyTo, onCancelReply, movedAway = false }: MessageInputProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [text, setText] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [sign, setSign] = useSignOption();
  const narrow = useMediaQuery((theme) => theme.breakpoints.down("sm"));
  const fileInput = useRef<HTMLInputElement>(null);
  const send = useSendMessage(ticket.id);
  const enabled = ticket.status === "open" && !movedAway;
  const quickSearch = text.startsWith("/") && !text.includes("\n") ? text.slice(1) : null;
  const lastInboundAt = ticket.lastInboundAt ?? null;
  const serviceWindow = useServiceWindow({ whatsapp: ticket.whatsapp ?? null, lastInboundAt });
  // The server's clock decides: a refusal for a closed window switches to templates until the customer writes again.
  const [refusedAt, setRefusedAt] = useState<string | null | undefined>(undefined);
  const windowClosed = (serviceWindow.applies && !serviceWindow.open) || refusedAt === lastInboundAt;
  const onSendError = (error: unknown) => {
    if (error instanceof ApiError && error.code === "ERR_WAPP_WINDOW_CLOSED") setRefusedAt(lastInboundAt);
  };
  const typing = useTypingSignal(ticket.id, enabled && capabilitiesOf(ticket.whatsapp?.provider).typing);

  const addFiles = (list: FileList | File[] | null) => {
    if (list?.length) setFiles((current) => [...current, ...Array.from(list)]);
  };

  const submit = () => {
    const trimmed = text.trim();
    if (send.isPending || (!trimmed && files.length === 0)) return;
    const body = trimmed && sign && user ? signed(user.name, trimmed) : trimmed;
    typing.stop();
    send.mutate(
      { body, files, quotedMsgId: replyTo?.id },
      {
        onSuccess: () => {
          setText("");
          setFiles([]);
          onCancelReply();
        },
        onError: onSendError,
      },
    );
  };

  const sendVoice = (file: File) =>
    send.mutate({ body: "", files: [file], isVoice: true, quotedMsgId: replyTo?.id }, { onError: onSendError });

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const onPaste = (event: ClipboardEvent) => {
    if (event.clipboardData.files.length) {
      event.preventDefault();
      addFiles(event.clipboardData.files);
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (enabled) addFiles(event.dataTransfer.files);
  };

  if (movedAway) {
    const to = ticket.user && ticket.user.id !== user?.id ? ticket.user.name : null;
    return (
      <Paper square variant="outlined" role="status" sx={{ p: 2, textAlign: "center" }}>
        <Typography color="text.secondary">
          {to ? t("conversation.input.movedTo", { name: to }) : t("conversation.input.movedAway")}
        </Typography>
      </Paper>
    );
  }
  if (!enabled) {
    return (
      <Paper square variant="outlined" sx={{ p: 2, textAlign: "center" }}>
        <Typography color="text.secondary">{t("conversation.input.closed")}</Typography>
      </Paper>
    );
  }
  if (windowClosed && ticket.whatsapp) {
    return <TemplateComposer ticketId={ticket.id} whatsappId={ticket.whatsapp.id} />;
  }

  return (
    <Paper
      square
      variant="outlined"
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid="composer"
      sx={{ position: "relative", outline: dragging ? "2px dashed" : undefined, outlineColor: "primary.main" }}
    >
      {serviceWindow.applies && serviceWindow.open && <ServiceWindowBanner remainingMs={serviceWindow.remainingMs} />}
      {replyTo && (
        <Box
          sx={{ display: "flex", alignItems: "center", gap: 1, p: 1, bgcolor: "action.hover" }}
          aria-label={t("conversation.input.replying")}
        >
          <Typography variant="body2" noWrap sx={{ flex: 1, borderLeft: 4, borderColor: "primary.main", pl: 1 }}>
            {replyTo.isDeleted ? t("conversation.message.deleted") : replyTo.body}
          </Typography>
          <IconButton size="small" aria-label={t("conversation.input.cancelReply")} onClick={onCancelReply}>
            <CloseIcon fontSize="small" />
          </IconButton>
        </Box>
      )}
      <AttachmentsPreview files={files} onRemove={(index) => setFiles((current) => current.filter((_f, i) => i !== index))} />
      <Box sx={{ display: "flex", alignItems: "flex-end", gap: 0.5, p: 1, position: "relative" }}>
        {quickSearch !== null && <QuickAnswersList search={quickSearch} onPick={(answer) => setText(answer.message)} />}
        <EmojiPicker onPick={(emoji) => setText((current) => current + emoji)} />
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          data-testid="file-input"
          onChange={(e) => {
            addFiles(e.target.files);
            e.target.value = "";
          }}
        />
        <ComposerExtras
          ticketId={ticket.id}
          narrow={narrow}
          disabled={movedAway}
          sign={sign}
          onSignChange={setSign}
          onAttach={() => fileInput.current?.click()}
        />
        <InputBase
          multiline
          maxRows={5}
          autoFocus
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (e.target.value.trim()) typing.typed();
            else typing.stop();
          }}
          onBlur={typing.stop}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          placeholder={t("conversation.input.placeholder")}
          slotProps={{ input: { "aria-label": t("conversation.input.placeholder") } }}
          sx={{ flex: 1, bgcolor: "background.paper", borderRadius: 4, px: 2, py: 1, border: 1, borderColor: "divider" }}
        />
        {text.trim() || files.length ? (
          <IconButton aria-label={t("conversation.input.send")} color="primary" onClick={submit} disabled={send.isPending}>
            <SendIcon />
          </IconButton>
        ) : (
          <VoiceRecorder disabled={send.isPending} onRecorded={sendVoice} />
        )}
      </Box>
    </Paper>
  );
}
