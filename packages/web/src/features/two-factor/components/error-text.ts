import { ApiError } from "../../../lib/api-client";
import i18n from "../../../lib/i18n";

/** A failed call's text for a form field: the translated code, else the server's message, else a generic one. */
export function errorText(error: unknown): string | undefined {
  if (!error) return undefined;
  if (error instanceof ApiError) {
    if (error.code === "ERR_VALIDATION") return i18n.t("twoFactor.invalidFormat");
    if (error.code && i18n.exists(`backendErrors.${error.code}`)) return i18n.t(`backendErrors.${error.code}`);
    if (error.serverMessage) return error.serverMessage;
  }
  return i18n.t("errors.generic");
}
