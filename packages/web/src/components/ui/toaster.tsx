import Alert from "@mui/material/Alert";
import Portal from "@mui/material/Portal";
import Stack from "@mui/material/Stack";
import { dismissToast, useToasts } from "../../lib/toast";

/**
 * Renders the toast store; errors are announced assertively, the rest politely.
 * The portal is mounted only while toasts exist: an open dialog hides (aria-hidden)
 * whatever was on the page before it, and a toast raised from inside a dialog must
 * still reach screen readers.
 */
export function Toaster() {
  const toasts = useToasts();
  if (toasts.length === 0) return null;
  return (
    <Portal>
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
    </Portal>
  );
}
