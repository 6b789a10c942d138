import Alert from "@mui/material/Alert";
import Portal from "@mui/material/Portal";
import Stack from "@mui/material/Stack";
import { useCallback, useRef } from "react";
import { dismissToast, useToasts } from "../../lib/toast";

/**
 * An open dialog marks everything else on the page aria-hidden, which would also
 * silence a toast raised from inside that dialog (a duplicate-contact error, say).
 * The toast stack is a live region that must stay perceivable, so it refuses the flag.
 */
function useStaysAudible() {
  const observer = useRef<MutationObserver | null>(null);
  return useCallback((element: HTMLElement | null) => {
    observer.current?.disconnect();
    if (!element) return;
    element.removeAttribute("aria-hidden");
    observer.current = new MutationObserver(() => {
      if (element.getAttribute("aria-hidden") === "true") element.removeAttribute("aria-hidden");
    });
    observer.current.observe(element, { attributes: true, attributeFilter: ["aria-hidden"] });
  }, []);
}

/** Renders the toast store; errors are announced assertively, the rest politely. */
export function Toaster() {
  const toasts = useToasts();
  const audibleRef = useStaysAudible();
  return (
    <Portal>
      <Stack
        ref={audibleRef}
        spacing={1}
        sx={{ position: "fixed", top: 72, right: 16, zIndex: (theme) => theme.zIndex.snackbar, maxWidth: 420 }}
      >
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
