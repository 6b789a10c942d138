import { DEBOUNCE_MS } from "@zapdesk/core";
import { useEffect, useState } from "react";

/** `value` once it stopped changing for `delay`; `initial` until then (the value itself by default). */
export function useDebounce<T>(value: T, delay = DEBOUNCE_MS, initial: T = value): T {
  const [debounced, setDebounced] = useState(initial);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}
