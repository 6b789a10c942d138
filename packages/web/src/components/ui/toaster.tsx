import Alert from "@mui/material/Alert";
import Stack from "@mui/material/Stack";
import { dismissToast, useToasts } from "../../lib/toast";

/** Renders the toast store; errors are announced assertively, the rest politely. */
export function Toaster() {
  const toasts = useToasts();
  return (
    <Stack spacing={1} sx={{ position: "fixed", top: 72, right: 16, zIndex: (theme) => theme.zIndex.snackbar, maxWidth: 420 }}>
      {toasts.map((t) => (
        <Alert
          key={t.id}
          severity={t.kind}
          variant="filled"
          role={t.kind === "error" ? "alert" : "status"}
          onClose={() => dismissToast(t.id)}
          data-testid="toast"
        >
          {t.message}
        </Alert>
      ))}
    </Stack>
  );
}
