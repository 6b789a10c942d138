import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type BusinessHours, SCHEDULE_MSG } from "@zapdesk/core";
import { useMemo } from "react";
import type { FieldError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { translateValidation } from "../../../lib/i18n";
import { browserTimeZone, timeZones } from "../utils/time-zones";

/** Monday first, as a Brazilian team reads its week; values are JavaScript's (0 = Sunday). */
const WEEK = [1, 2, 3, 4, 5, 6, 0] as const;

type Errors = Record<string, unknown> | undefined;

/** The error message at a nested path of react-hook-form's errors ("days.3.to"). */
function errorAt(errors: Errors, ...path: (string | number)[]): string | undefined {
  let node: unknown = errors;
  for (const key of path) node = node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
  return (node as FieldError | undefined)?.message;
}

export function defaultSchedule(message: string): BusinessHours {
  return {
    timezone: browserTimeZone(),
    days: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, from: "09:00", to: "18:00" })),
    outOfHoursMessage: message,
    holidays: [],
  };
}

/**
 * The queue form's "Business hours" section: always open, or a weekly schedule in a time zone
 * (one or more intervals per weekday), holidays, and the out-of-hours message.
 */
export function BusinessHoursSection({
  value,
  onChange,
  errors,
}: {
  value: BusinessHours | null;
  onChange(value: BusinessHours | null): void;
  errors?: Errors;
}) {
  const { t } = useTranslation();
  const zones = useMemo(timeZones, []);
  const message = (text: string | undefined) => {
    if (!text) return undefined;
    const key = Object.entries(SCHEDULE_MSG).find(([, m]) => m === text)?.[0];
    return key ? t(`businessHours.validation.${key}`) : translateValidation(text);
  };
  const dayNames = useMemo(() => {
    // 2023-01-01 was a Sunday.
    const format = new Intl.DateTimeFormat(t("businessHours.locale"), { weekday: "long", timeZone: "UTC" });
    return Array.from({ length: 7 }, (_, d) => format.format(new Date(Date.UTC(2023, 0, 1 + d))));
  }, [t]);

  const update = (changes: Partial<BusinessHours>) => value && onChange({ ...value, ...changes });
  const setInterval = (index: number, changes: Partial<BusinessHours["days"][number]>) =>
    update({ days: value?.days.map((d, i) => (i === index ? { ...d, ...changes } : d)) ?? [] });

  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }} aria-labelledby="business-hours-title">
      <Divider sx={{ mb: 1 }} />
      <Typography id="business-hours-title" variant="subtitle1" component="legend">
        {t("businessHours.title")}
      </Typography>
      <FormControlLabel
        control={
          <Switch
            checked={value !== null}
            onChange={(event) =>
              onChange(event.target.checked ? defaultSchedule(t("businessHours.defaultMessage", { name: "{{name}}" })) : null)
            }
          />
        }
        label={t("businessHours.useSchedule")}
      />
      {value === null ? (
        <Typography variant="body2" color="text.secondary">
          {t("businessHours.alwaysOpenHelp")}
        </Typography>
      ) : (
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Autocomplete
            options={zones}
            value={value.timezone}
            disableClearable
            onChange={(_event, timezone) => update({ timezone })}
            renderInput={(params) => (
              <TextField
                {...params}
                label={t("businessHours.timezone")}
                error={!!errorAt(errors, "timezone")}
                helperText={message(errorAt(errors, "timezone"))}
              />
            )}
          />
          <Stack spacing={1} role="group" aria-label={t("businessHours.weekly")}>
            {WEEK.map((weekday) => {
              const intervals = value.days.map((d, index) => ({ ...d, index })).filter((d) => d.weekday === weekday);
              return (
                <Stack
                  key={weekday}
                  direction="row"
                  spacing={1}
                  sx={{ alignItems: "flex-start" }}
                  role="group"
                  aria-label={dayNames[weekday]}
                >
                  <Typography variant="body2" sx={{ width: 110, pt: 1, textTransform: "capitalize" }}>
                    {dayNames[weekday]}
                  </Typography>
                  <Stack spacing={1} sx={{ flex: 1 }}>
                    {intervals.length === 0 && (
                      <Typography variant="body2" color="text.secondary" sx={{ pt: 1 }}>
                        {t("businessHours.closed")}
                      </Typography>
                    )}
                    {intervals.map(({ index, from, to }, n) => (
                      <Stack key={index} direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
                        <TextField
                          size="small"
                          type="time"
                          label={t("businessHours.from")}
                          value={from}
                          onChange={(event) => setInterval(index, { from: event.target.value })}
                          error={!!errorAt(errors, "days", index, "from")}
                          helperText={message(errorAt(errors, "days", index, "from"))}
                          slotProps={{
                            htmlInput: { "aria-label": t("businessHours.fromOf", { day: dayNames[weekday], n: n + 1 }) },
                          }}
                        />
                        <TextField
                          size="small"
                          type="time"
                          label={t("businessHours.to")}
                          // "24:00" (end of the day) shows and is typed as 00:00.
                          value={to === "24:00" ? "00:00" : to}
                          onChange={(event) =>
                            setInterval(index, { to: event.target.value === "00:00" ? "24:00" : event.target.value })
                          }
                          error={!!errorAt(errors, "days", index, "to")}
                          helperText={message(errorAt(errors, "days", index, "to"))}
                          slotProps={{
                            htmlInput: { "aria-label": t("businessHours.toOf", { day: dayNames[weekday], n: n + 1 }) },
                          }}
                        />
                        <IconButton
                          aria-label={t("businessHours.removeInterval", { day: dayNames[weekday] })}
                          onClick={() => update({ days: value.days.filter((_, i) => i !== index) })}
                        >
                          <DeleteOutline />
                        </IconButton>
                      </Stack>
                    ))}
                  </Stack>
                  <IconButton
                    aria-label={t("businessHours.addInterval", { day: dayNames[weekday] })}
                    onClick={() => {
                      const last = intervals.at(-1);
                      const next = last
                        ? { from: last.to === "24:00" ? "23:00" : last.to, to: "24:00" }
                        : { from: "09:00", to: "18:00" };
                      update({ days: [...value.days, { weekday, ...next }] });
                    }}
                  >
                    <AddIcon />
                  </IconButton>
                </Stack>
              );
            })}
            <FormHelperText>{t("businessHours.intervalsHelp")}</FormHelperText>
          </Stack>
          <HolidaysEditor value={value} onChange={(holidays) => update({ holidays })} errors={errors} message={message} />
          <TextField
            label={t("businessHours.outOfHoursMessage")}
            value={value.outOfHoursMessage}
            onChange={(event) => update({ outOfHoursMessage: event.target.value })}
            multiline
            minRows={3}
            fullWidth
            error={!!errorAt(errors, "outOfHoursMessage")}
            helperText={message(errorAt(errors, "outOfHoursMessage")) ?? t("businessHours.outOfHoursHelp", { name: "{{name}}" })}
          />
        </Stack>
      )}
    </Box>
  );
}

function HolidaysEditor({
  value,
  onChange,
  errors,
  message,
}: {
  value: BusinessHours;
  onChange(holidays: BusinessHours["holidays"]): void;
  errors: Errors;
  message(text: string | undefined): string | undefined;
}) {
  const { t } = useTranslation();
  const set = (index: number, changes: Partial<BusinessHours["holidays"][number]>) =>
    onChange(value.holidays.map((h, i) => (i === index ? { ...h, ...changes } : h)));
  return (
    <Stack spacing={1} role="group" aria-label={t("businessHours.holidays")}>
      <Typography variant="body2">{t("businessHours.holidays")}</Typography>
      {value.holidays.map((holiday, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own
        <Stack key={index} direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
          <TextField
            size="small"
            type="date"
            label={t("businessHours.holidayDate")}
            value={holiday.date}
            onChange={(event) => set(index, { date: event.target.value })}
            error={!!errorAt(errors, "holidays", index, "date")}
            helperText={message(errorAt(errors, "holidays", index, "date"))}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            size="small"
            label={t("businessHours.holidayName")}
            value={holiday.name ?? ""}
            onChange={(event) => set(index, { name: event.target.value })}
            sx={{ flex: 1 }}
          />
          <IconButton
            aria-label={t("businessHours.removeHoliday")}
            onClick={() => onChange(value.holidays.filter((_, i) => i !== index))}
          >
            <DeleteOutline />
          </IconButton>
        </Stack>
      ))}
      <Box>
        <Button size="small" startIcon={<AddIcon />} onClick={() => onChange([...value.holidays, { date: "", name: "" }])}>
          {t("businessHours.addHoliday")}
        </Button>
      </Box>
    </Stack>
  );
}
