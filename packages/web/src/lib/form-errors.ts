import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "./api-client";
import { toastError } from "./error-handler";
import { toast } from "./toast";

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

/**
 * The submit every form shares: the spec's delay, the save, a success toast, then `done`;
 * a failure goes next to its fields or into a toast.
 */
export async function submitForm<T extends FieldValues>(options: {
  save: () => Promise<unknown>;
  success: string;
  done: () => void;
  setError: UseFormSetError<T>;
  fields: readonly string[];
}): Promise<void> {
  await delay(SUBMIT_DELAY_MS);
  try {
    await options.save();
    toast.success(options.success);
    options.done();
  } catch (error) {
    handleFormError(error, options.setError, options.fields);
  }
}
