import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMutation, useQuery } from "@tanstack/react-query";
import type { Connection, SimulatorOutboundMessage } from "@zapdesk/core";
import { type FormEvent, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../../lib/api-client";
import { toastError } from "../../../lib/error-handler";

/** How often the customer's phone is looked at for what Zapdesk sent it. */
export const PHONE_REFRESH_MS = 2000;

interface Line {
  key: string;
  fromCustomer: boolean;
  body: string;
  at: string;
}

const randomCustomer = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;

/**
 * Issue 20: play a customer of a simulator connection from the app (admins; the demo's way to try
 * the inbox). What is written goes through POST /simulator/:id/inbound, as a customer's message
 * would; what Zapdesk sent that customer's phone is read back from GET /simulator/:id/outbound.
 */
export function CustomerSimulator({ connection, onClose }: { connection: Connection | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const [number, setNumber] = useState(randomCustomer);
  const [name, setName] = useState("Cliente Demo");
  const [text, setText] = useState("");
  const [sent, setSent] = useState<Line[]>([]);
  const to = number.replace(/\D/g, "");
  const open = !!connection;

  const phone = useQuery({
    queryKey: ["simulator", connection?.id, "outbound", to],
    queryFn: () =>
      api.get<{ messages: SimulatorOutboundMessage[] }>(`/simulator/${connection?.id}/outbound`, {
        to,
      }),
    enabled: open && to.length >= 5,
    refetchInterval: PHONE_REFRESH_MS,
  });
  const send = useMutation({
    mutationFn: (body: string) =>
      api.post<{ id: string }>(`/simulator/${connection?.id}/inbound`, { from: to, name: name.trim() || undefined, body }),
    onSuccess: (result, body) => {
      setSent((lines) => [...lines, { key: result.id, fromCustomer: true, body, at: new Date().toISOString() }]);
      setText("");
      void phone.refetch();
    },
    onError: toastError,
  });

  const lines = useMemo(() => {
    const received = (phone.data?.messages ?? [])
      .filter((m) => !m.deleted)
      .map<Line>((m) => ({ key: m.wid, fromCustomer: false, body: m.body || m.media?.filename || "", at: m.timestamp }));
    return [...sent, ...received].sort((a, b) => a.at.localeCompare(b.at));
  }, [sent, phone.data]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() && to.length >= 5) send.mutate(text);
  };
  const changeCustomer = (value: string) => {
    setNumber(value);
    setSent([]);
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="customer-simulator-title">
      <DialogTitle id="customer-simulator-title">
        {t("connections.simulator.title", { name: connection?.name ?? "" })}
      </DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t("connections.simulator.hint")}
        </Typography>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ mb: 2, pt: 1 }}>
          <TextField
            size="small"
            label={t("connections.simulator.number")}
            value={number}
            onChange={(e) => changeCustomer(e.target.value)}
            fullWidth
          />
          <TextField
            size="small"
            label={t("connections.simulator.name")}
            value={name}
            onChange={(e) => setName(e.target.value)}
            fullWidth
          />
        </Stack>
        <Box
          role="log"
          aria-label={t("connections.simulator.title", { name: connection?.name ?? "" })}
          sx={{
            height: 280,
            overflowY: "auto",
            bgcolor: "chat.background",
            borderRadius: 1,
            p: 1,
            display: "flex",
            flexDirection: "column",
            gap: 0.5,
          }}
        >
          {lines.length === 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ m: "auto" }}>
              {t("connections.simulator.empty")}
            </Typography>
          )}
          {lines.map((line) => (
            <Box
              key={line.key}
              role="article"
              aria-label={line.fromCustomer ? t("connections.simulator.customer") : t("connections.simulator.company")}
              sx={{
                alignSelf: line.fromCustomer ? "flex-end" : "flex-start",
                maxWidth: "80%",
                px: 1.5,
                py: 0.75,
                borderRadius: 2,
                bgcolor: line.fromCustomer ? "bubble.mine" : "bubble.theirs",
                whiteSpace: "pre-wrap",
                overflowWrap: "anywhere",
              }}
            >
              <Typography variant="body2">{line.body}</Typography>
            </Box>
          ))}
        </Box>
        <Stack component="form" direction="row" spacing={1} sx={{ mt: 2 }} onSubmit={submit}>
          <TextField
            size="small"
            label={t("connections.simulator.message")}
            value={text}
            onChange={(e) => setText(e.target.value)}
            autoFocus
            fullWidth
          />
          <Button type="submit" variant="contained" disabled={!text.trim() || send.isPending}>
            {t("connections.simulator.send")}
          </Button>
        </Stack>
      </DialogContent>
    </Dialog>
  );
}
