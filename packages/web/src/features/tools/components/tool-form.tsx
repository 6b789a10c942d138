import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { MessageDialog } from "../../../components/ui/message-dialog";
import { ApiError } from "../../../lib/api-client";
import { getDispatchId } from "../api/get-dispatch-id";

export type ToolFieldName =
  | "dispatchId"
  | "numbers"
  | "message"
  | "url"
  | "title"
  | "limit"
  | "sender"
  | "recipients"
  | "scheduledAt"
  | "groupId";

const MULTILINE: ToolFieldName[] = ["numbers", "message", "recipients"];
const TYPES: Partial<Record<ToolFieldName, string>> = { url: "url", limit: "number", scheduledAt: "datetime-local" };

interface ToolFormProps {
  /** Distinguishes ids when a page holds several forms (the groups tabs). */
  id: string;
  fields: ToolFieldName[];
  advice?: string[];
}

/**
 * The marketing tools are placeholders (spec §1): every field is required at
 * browser level and submitting only says the tool belongs to the paid version.
 */
export function ToolForm({ id, fields, advice = [] }: ToolFormProps) {
  const { t } = useTranslation();
  const [message, setMessage] = useState<string | null>(null);
  const [resetKey, setResetKey] = useState(0);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setMessage(t("tools.paidVersion"));
  };

  const showDispatchId = async () => {
    try {
      const { id: dispatchId } = await getDispatchId();
      setMessage(String(dispatchId));
    } catch (error) {
      const text = error instanceof ApiError ? (error.serverMessage ?? error.message) : String(error);
      setMessage(`Erro: ${text}`);
    }
  };

  return (
    <Stack
      component="form"
      key={resetKey}
      onSubmit={onSubmit}
      spacing={2}
      sx={{ maxWidth: 720 }}
      aria-label={t(`tools.forms.${id}`)}
    >
      {advice.map((text) => (
        <Alert key={text} severity="info">
          {text}
        </Alert>
      ))}
      {fields.map((field) => (
        <TextField
          key={field}
          id={`${id}-${field}`}
          name={field}
          label={t(`tools.fields.${field}`)}
          placeholder={t(`tools.placeholders.${field}`, { defaultValue: "" }) || undefined}
          required
          fullWidth
          type={TYPES[field]}
          multiline={MULTILINE.includes(field)}
          minRows={MULTILINE.includes(field) ? 4 : undefined}
          slotProps={{
            inputLabel: TYPES[field] === "datetime-local" ? { shrink: true } : undefined,
            htmlInput: field === "limit" ? { min: 1 } : undefined,
          }}
        />
      ))}
      <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", gap: 1 }}>
        <Button type="submit" variant="contained">
          {t("tools.buttons.submit")}
        </Button>
        {fields.includes("dispatchId") && (
          <Button variant="outlined" onClick={showDispatchId}>
            {t("tools.buttons.showDispatchId")}
          </Button>
        )}
        <Button type="button" color="inherit" onClick={() => setResetKey((k) => k + 1)}>
          {t("tools.buttons.reset")}
        </Button>
      </Stack>
      <MessageDialog message={message} onClose={() => setMessage(null)} />
    </Stack>
  );
}
