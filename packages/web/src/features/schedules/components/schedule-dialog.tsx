import AttachFileIcon from "@mui/icons-material/AttachFile";
import CloseIcon from "@mui/icons-material/Close";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { MESSAGE_MAX_LENGTH, type Schedule } from "@zapdesk/core";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../lib/api-client";
import { toastError } from "../../../lib/error-handler";
import { toast } from "../../../lib/toast";
import { fromLocalInput, toLocalInput, useSaveSchedule } from "../api/schedules";

export interface ScheduleDialogProps {
  open: boolean;
  onClose(): void;
  /** Where a new schedule goes: a ticket, or a contact (its ticket is found or opened at send time). */
  target?: { ticketId: number } | { contactId: number };
  /** Editing this schedule instead. */
  schedule?: Schedule | null;
}

type Errors = Partial<Record<"sendAt" | "body", string>>;

/** Schedule (or edit) a message: date and time (native picker), text, an optional file. */
export function ScheduleDialog({ open, onClose, target, schedule }: ScheduleDialogProps) {
  const { t } = useTranslation();
  const save = useSaveSchedule();
  const fileInput = useRef<HTMLInputElement>(null);
  const [sendAt, setSendAt] = useState("");
  const [body, setBody] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [keptMedia, setKeptMedia] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});

  useEffect(() => {
    if (!open) return;
    setSendAt(toLocalInput(schedule ? new Date(schedule.sendAt) : new Date(Date.now() + 60 * 60 * 1000)));
    setBody(schedule?.body ?? "");
    setFile(null);
    setKeptMedia(schedule?.mediaName ?? null);
    setErrors({});
  }, [open, schedule]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const at = fromLocalInput(sendAt);
    const found: Errors = {};
    if (!at) found.sendAt = t("schedules.dialog.errors.sendAt");
    else if (new Date(at).getTime() < Date.now() - 60_000) found.sendAt = t("schedules.dialog.errors.past");
    if (!body.trim() && !file && !keptMedia) found.body = t("schedules.dialog.errors.body");
    if (body.length > MESSAGE_MAX_LENGTH) found.body = t("schedules.dialog.errors.tooLong");
    setErrors(found);
    if (found.sendAt || found.body || !at) return;
    try {
      await save.mutateAsync({
        id: schedule?.id,
        ...(schedule ? {} : target),
        body,
        sendAt: at,
        file,
        removeMedia: !!schedule?.mediaName && !keptMedia && !file,
      });
      toast.success(t(schedule ? "schedules.dialog.updated" : "schedules.dialog.created"));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.code === "ERR_VALIDATION" && error.details?.length) {
        const fields: Errors = {};
        for (const detail of error.details) {
          const field = String(detail.path[0]);
          if (field === "sendAt" || field === "body") fields[field] = detail.message;
        }
        if (Object.keys(fields).length) {
          setErrors(fields);
          return;
        }
      }
      toastError(error);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="schedule-dialog-title">
      <DialogTitle id="schedule-dialog-title">
        {t(schedule ? "schedules.dialog.editTitle" : "schedules.dialog.title")}
      </DialogTitle>
      <form noValidate onSubmit={onSubmit}>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              type="datetime-local"
              label={t("schedules.dialog.sendAt")}
              value={sendAt}
              onChange={(e) => setSendAt(e.target.value)}
              error={!!errors.sendAt}
              helperText={errors.sendAt}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1, "data-testid": "schedule-send-at" } }}
              fullWidth
            />
            <TextField
              label={t("schedules.dialog.body")}
              value={body}
              onChange={(e) => setBody(e.target.value)}
              error={!!errors.body}
              helperText={errors.body}
              multiline
              minRows={4}
              autoFocus
              fullWidth
            />
            <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
              <Button startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()}>
                {t("schedules.dialog.attach")}
              </Button>
              <input
                ref={fileInput}
                type="file"
                hidden
                data-testid="schedule-file-input"
                onChange={(e) => {
                  setFile(e.target.files?.[0] ?? null);
                  e.target.value = "";
                }}
              />
              {(file?.name ?? keptMedia) && (
                <>
                  <Typography variant="body2" noWrap sx={{ flex: 1 }} data-testid="schedule-attachment">
                    {file?.name ?? keptMedia}
                  </Typography>
                  <IconButton
                    size="small"
                    aria-label={t("schedules.dialog.removeAttachment")}
                    onClick={() => {
                      setFile(null);
                      setKeptMedia(null);
                    }}
                  >
                    <CloseIcon fontSize="small" />
                  </IconButton>
                </>
              )}
            </Box>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit" disabled={save.isPending}>
            {t("schedules.dialog.cancel")}
          </Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {t(schedule ? "schedules.dialog.save" : "schedules.dialog.submit")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
