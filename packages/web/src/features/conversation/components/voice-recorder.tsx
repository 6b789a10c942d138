import SendIcon from "@mui/icons-material/CheckCircle";
import CancelIcon from "@mui/icons-material/HighlightOff";
import MicIcon from "@mui/icons-material/Mic";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { toastError } from "../../../lib/error-handler";
import { toast } from "../../../lib/toast";
import { formatElapsed, useVoiceRecorder } from "../hooks/use-voice-recorder";

/** The mic button, then the recording timer with cancel and send. */
export function VoiceRecorder({ disabled, onRecorded }: { disabled?: boolean; onRecorded(file: File): void }) {
  const { t } = useTranslation();
  const recorder = useVoiceRecorder();

  if (recorder.state === "idle") {
    return (
      <IconButton
        aria-label={t("conversation.input.record")}
        disabled={disabled}
        onClick={() =>
          recorder
            .start()
            .catch((error) =>
              error instanceof DOMException ? toast.error(t("conversation.input.micDenied")) : toastError(error),
            )
        }
      >
        <MicIcon />
      </IconButton>
    );
  }
  return (
    <Stack direction="row" sx={{ alignItems: "center" }}>
      <IconButton aria-label={t("conversation.input.cancelRecording")} color="error" onClick={recorder.cancel}>
        <CancelIcon />
      </IconButton>
      <Typography aria-live="polite" aria-label={t("conversation.input.recording")} sx={{ fontVariantNumeric: "tabular-nums" }}>
        {formatElapsed(recorder.elapsed)}
      </Typography>
      <IconButton
        aria-label={t("conversation.input.sendRecording")}
        color="success"
        onClick={async () => {
          const file = await recorder.stop();
          if (file) onRecorded(file);
          else toast.info(t("conversation.input.tooShort"));
        }}
      >
        <SendIcon />
      </IconButton>
    </Stack>
  );
}
