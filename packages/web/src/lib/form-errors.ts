import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "./api-client";
import { toastError } from "./error-handler";

/**
 * Server field errors (ERR_VALIDATION details) go next to their fields; anything
 * else goes through the generic toast handler.
 */
export function handleFormError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
): void {
  if (error instanceof ApiError && error.code === "ERR_VALIDATION" && error.details?.length) {
    const known = error.details.filter((d) => fields.includes(String(d.path[0])));
    for (const detail of known) setError(detail.path.join(".") as Path<T>, { type: "server", message: detail.message });
    if (known.length === error.details.length) return;
  }
  toastError(error);
}

/** Spec §5: form submission is delayed 400 ms (keeps double clicks from posting twice). */
export const SUBMIT_DELAY_MS = 400;
export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
