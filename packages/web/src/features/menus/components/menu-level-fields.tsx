import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import type { MenuOptionInput } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { useQueues } from "../../../lib/queries/use-queues";

type LevelInput = Pick<MenuOptionInput, "personWords" | "timeoutMinutes" | "timeoutQueueId" | "fallbackQueueId">;

/** A single queue (empty: the connection's first queue). */
export function QueuePick({
  label,
  value,
  onChange,
  emptyLabel,
}: {
  label: string;
  value: number | null | undefined;
  onChange(id: number | null): void;
  emptyLabel?: string;
}) {
  const { t } = useTranslation();
  const { data: queues = [] } = useQueues();
  return (
    <TextField
      select
      size="small"
      label={label}
      // Until the queues are read, a chosen one shows as empty (MUI refuses a value it does not list).
      value={value && queues.some((q) => q.id === value) ? value : ""}
      onChange={(e) => onChange(e.target.value === "" ? null : Number(e.target.value))}
      sx={{ minWidth: 180 }}
    >
      <MenuItem value="">{emptyLabel ?? t("menus.firstQueue")}</MenuItem>
      {queues.map((q) => (
        <MenuItem key={q.id} value={q.id}>
          {q.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** What every level has: "talk to a person" words, its timeout and its fallback queue. */
export function MenuLevelFields({ level, onChange }: { level: LevelInput; onChange(patch: Partial<LevelInput>): void }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1, flexWrap: "wrap" }}>
      <TextField
        size="small"
        label={t("menus.fields.personWords")}
        helperText={t("menus.fields.personWordsHelp")}
        value={(level.personWords ?? []).join(", ")}
        onChange={(e) =>
          onChange({
            personWords: e.target.value
              .split(",")
              .map((w) => w.trimStart())
              .filter((w, i, all) => w !== "" || i === all.length - 1),
          })
        }
        onBlur={() => onChange({ personWords: (level.personWords ?? []).map((w) => w.trim()).filter(Boolean) })}
        sx={{ minWidth: 240 }}
      />
      <TextField
        size="small"
        type="number"
        label={t("menus.fields.timeoutMinutes")}
        value={level.timeoutMinutes ?? ""}
        onChange={(e) => onChange({ timeoutMinutes: e.target.value === "" ? null : Number(e.target.value) })}
        slotProps={{ htmlInput: { min: 1, max: 10080 } }}
        sx={{ width: 150 }}
      />
      {level.timeoutMinutes ? (
        <QueuePick
          label={t("menus.fields.timeoutQueue")}
          value={level.timeoutQueueId}
          onChange={(id) => onChange({ timeoutQueueId: id })}
        />
      ) : null}
      <QueuePick
        label={t("menus.fields.fallbackQueue")}
        value={level.fallbackQueueId}
        onChange={(id) => onChange({ fallbackQueueId: id })}
      />
    </Stack>
  );
}
