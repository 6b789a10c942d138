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

/** Issue 13: the queue form's "automatic assignment" switch (admins, an existing queue); saved at once. */
export function QueueAutoAssignSwitch({ queueId }: { queueId: number }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const allowed = can(user, "routing:manage");
  const client = useQueryClient();
  const { data } = useRoutingSettings(allowed);
  const save = useMutation({
    mutationFn: (autoAssign: boolean) => api.put(`/routing/queues/${queueId}`, { autoAssign }),
    onSuccess: () => {
      client.invalidateQueries({ queryKey: routingKey });
      toast.success(t("routing.autoAssign.saved"), "routing-auto-assign");
    },
  });
  if (!allowed) return null;
  const checked = data?.queues.find((q) => q.queueId === queueId)?.autoAssign ?? false;
  return (
    <FormControlLabel
      control={<Switch checked={checked} disabled={!data || save.isPending} onChange={(_e, value) => save.mutate(value)} />}
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
