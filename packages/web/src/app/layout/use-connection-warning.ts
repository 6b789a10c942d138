import { CONNECTION_WARNING_STATUSES, type Connection, restrictionNeedsAttention } from "@zapdesk/core";
import { useEffect, useState } from "react";

/**
 * Spec §2: the '!' badge is re-evaluated 2 s after the connection list changes,
 * so a session passing briefly through OPENING does not flash it. A number WhatsApp restricts
 * (admins see the restriction) lights it too.
 */
export function useConnectionWarning(connections: Connection[] | undefined): boolean {
  const [warning, setWarning] = useState(false);
  useEffect(() => {
    if (!connections) return;
    const timer = setTimeout(() => {
      const now = new Date();
      setWarning(
        connections.some((c) => CONNECTION_WARNING_STATUSES.includes(c.status) || restrictionNeedsAttention(c.restriction, now)),
      );
    }, 2000);
    return () => clearTimeout(timer);
  }, [connections]);
  return warning;
}
