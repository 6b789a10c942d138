import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { can, type RoutingSettings } from "@zapdesk/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api-client";
import { useAuth } from "../../lib/auth";
import { toast } from "../../lib/toast";

const routingKey = ["routing"] as const;

function useRoutingSettings(enabled: boolean) {
  return useQuery({ queryKey: routingKey, queryFn: () => api.get<RoutingSettings>("/routing"), enabled });
}

/**
 * Issue 13: a queue's automatic assignment, for the queue form (admins): what is stored, and how to
 * save a new value. The form saves it with its Save (issue 20), never on the switch's click.
 */
export function useQueueAutoAssign(queueId: number | undefined) {
  const { user } = useAuth();
  const allowed = can(user, "routing:manage");
  const client = useQueryClient();
  const { data } = useRoutingSettings(allowed && queueId !== undefined);
  const stored =
    data && queueId !== undefined ? (data.queues.find((q) => q.queueId === queueId)?.autoAssign ?? false) : undefined;
  const save = async (id: number, autoAssign: boolean) => {
    await api.put(`/routing/queues/${id}`, { autoAssign });
    await client.invalidateQueries({ queryKey: routingKey });
  };
  return { allowed, stored, save };
}

/** The queue form's "automatic assignment" switch: a field of the form (see useQueueAutoAssign). */
export function QueueAutoAssignSwitch({
  checked,
  disabled,
  onChange,
}: {
  checked: boolean;
  disabled?: boolean;
  onChange(value: boolean): void;
}) {
  const { t } = useTranslation();
  return (
    <FormControlLabel
      control={<Switch checked={checked} disabled={disabled} onChange={(_e, value) => onChange(value)} />}
      label={t("routing.autoAssign.queue")}
    />
  );
}

/** Issue 13: the user form's capacity (max open tickets for automatic assignment; empty: unlimited). */
export function UserCapacityField({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const allowed = can(user, "routing:manage");
  const client = useQueryClient();
  const { data } = useRoutingSettings(allowed);
  const stored = data?.users.find((u) => u.userId === userId)?.maxOpenTickets ?? null;
  const [text, setText] = useState("");
  useEffect(() => setText(stored === null ? "" : String(stored)), [stored]);
  const save = useMutation({
    mutationFn: (maxOpenTickets: number | null) => api.put(`/routing/users/${userId}`, { maxOpenTickets }),
    onSuccess: () => {
      client.invalidateQueries({ queryKey: routingKey });
      toast.success(t("routing.autoAssign.saved"), "routing-capacity");
    },
  });
  if (!allowed) return null;
  const value = text.trim() === "" ? null : Number(text);
  const invalid = value !== null && (!Number.isInteger(value) || value < 1 || value > 1000);
  return (
    <TextField
      type="number"
      label={t("routing.autoAssign.capacity")}
      helperText={invalid ? t("routing.autoAssign.capacityInvalid") : t("routing.autoAssign.capacityHelp")}
      error={invalid}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={() => {
        if (!invalid && value !== stored) save.mutate(value);
      }}
      slotProps={{ htmlInput: { min: 1, max: 1000 } }}
      fullWidth
    />
  );
}
