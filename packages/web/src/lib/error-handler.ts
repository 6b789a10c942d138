import { ApiError } from "./api-client";
import i18n from "./i18n";
import { toast } from "./toast";

/**
 * The generic error handler (spec §8): a translated `backendErrors.<CODE>` text,
 * one toast per code; else the server's message; else 'An error occurred!'.
 */
export function toastError(error: unknown): void {
  const code = error instanceof ApiError ? error.code : undefined;
  if (code && i18n.exists(`backendErrors.${code}`)) {
    toast.error(i18n.t(`backendErrors.${code}`), code);
    return;
  }
  const message = error instanceof ApiError ? (error.serverMessage ?? error.code) : undefined;
  if (message) {
    toast.error(message);
    return;
  }
  toast.error(i18n.t("errors.generic"));
}
