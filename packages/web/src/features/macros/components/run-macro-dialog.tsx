import Dialog from "@mui/material/Dialog";
import DialogTitle from "@mui/material/DialogTitle";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import type { Macro } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { toastError } from "../../../lib/error-handler";
import { toast } from "../../../lib/toast";
import { useMacros, useRunMacro } from "../api/macros-api";

/** Runs a macro on a ticket and says what it did (or why nothing was done). */
export function useMacroRunner(ticketId: number) {
  const { t } = useTranslation();
  const run = useRunMacro();
  return {
    busy: run.isPending,
    // mutateAsync, not mutate's own callbacks: the dialog closes (and may unmount) as the run starts,
    // and TanStack Query drops mutate()'s callbacks once their component is gone, the toast with them.
    run: (macro: Macro) =>
      run.mutateAsync({ ticketId, macroId: macro.id }).then(
        (result) => {
          const done = result.results.filter((r) => r.outcome === "done").length;
          toast.success(t("macros.run.done", { name: macro.name, count: done }));
        },
        // The first refusal: nothing was applied (the server's message names the action).
        (error: unknown) => toastError(error),
      ),
  };
}

/** Issue 23 §2: "Run macro" on a ticket: the shared macros and the user's own. */
export function RunMacroDialog({ ticketId, open, onClose }: { ticketId: number; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { data: macros = [], isLoading } = useMacros();
  const runner = useMacroRunner(ticketId);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="run-macro-title">
      <DialogTitle id="run-macro-title">{t("macros.run.title")}</DialogTitle>
      <List dense sx={{ pt: 0 }}>
        {macros.map((macro) => (
          <ListItemButton
            key={macro.id}
            disabled={runner.busy}
            onClick={() => {
              onClose();
              runner.run(macro);
            }}
          >
            <ListItemText
              primary={macro.name}
              secondary={macro.actions.map((a) => t(`macros.actionTypes.${a.type}`)).join(" · ")}
            />
          </ListItemButton>
        ))}
      </List>
      {!isLoading && macros.length === 0 && (
        <Typography color="text.secondary" sx={{ px: 3, pb: 2 }}>
          {t("macros.run.none")}
        </Typography>
      )}
    </Dialog>
  );
}
