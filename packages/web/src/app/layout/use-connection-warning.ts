import { CONNECTION_WARNING_STATUSES, type Connection } from "@zapdesk/core";
import { useEffect, useState } from "react";

/**
 * Spec §2: the '!' badge is re-evaluated 2 s after the connection list changes,
 * so a session passing briefly through OPENING does not flash it.
 */
export function useConnectionWarning(connections: Connection[] | undefined): boolean {
  const [warning, setWarning] = useState(false);
  useEffect(() => {
    if (!connections) return;
    const timer = setTimeout(() => {
      setWarning(connections.some((c) => CONNECTION_WARNING_STATUSES.includes(c.status)));
    }, 2000);
    return () => clearTimeout(timer);
  }, [connections]);
  return warning;
}
