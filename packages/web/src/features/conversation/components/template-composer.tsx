import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";

// The picker, its form and preview are needed only once a window closes: kept out of the first bundle.
const TemplateDialog = lazy(() => import("./template-dialog"));

/** The composer once the 24-hour window is closed (or was never opened): only an approved template may go out. */
export function TemplateComposer({ ticketId, whatsappId }: { ticketId: number; whatsappId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Paper square variant="outlined" sx={{ p: 2, display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
      <Typography color="text.secondary" sx={{ flex: 1, minWidth: 200 }}>
        {t("conversation.window.closed")}
      </Typography>
      <Button variant="contained" onClick={() => setOpen(true)}>
        {t("conversation.templates.open")}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <TemplateDialog open={open} onClose={() => setOpen(false)} ticketId={ticketId} whatsappId={whatsappId} />
        </Suspense>
      )}
    </Paper>
  );
}
