/**
 * Meta retires each Graph API version about two years after its release; a call to a retired
 * version is answered with an error, so every Cloud API connection stops at once. The dates are
 * Meta's published ones (Graph API changelog, "versions" page), checked through v25.0.
 */
export const GRAPH_VERSION_EXPIRY: Readonly<Record<string, string>> = {
  "v21.0": "2027-01-21",
  "v22.0": "2027-05-20",
  "v23.0": "2027-10-08",
  "v24.0": "2028-02-18",
  "v25.0": "2028-07-29",
};

/** The version Zapdesk calls by default and is tested with. */
export const GRAPH_DEFAULT_VERSION = "v25.0";
export const GRAPH_DEFAULT_URL = `https://graph.facebook.com/${GRAPH_DEFAULT_VERSION}`;

/** How long before a version's expiry the boot log starts warning. */
export const GRAPH_EXPIRY_WARNING_DAYS = 90;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The version segment of a Graph base URL ("https://graph.facebook.com/v25.0" → "v25.0"). */
export function graphVersionOf(graphUrl: string): string | undefined {
  let path: string;
  try {
    path = new URL(graphUrl).pathname;
  } catch {
    return undefined;
  }
  return path.split("/").find((segment) => /^v\d+\.\d+$/.test(segment));
}

/**
 * What the boot log says about WHATSAPP_GRAPH_URL's version at `now`: nothing while it has more
 * than 90 days left; otherwise when it expires (or expired), and which version to move to. A
 * version this table does not know (older than v21.0, newer than v25.0, or none in the URL) is
 * said to be unknown, since nobody can tell when it stops working.
 */
export function graphVersionWarning(graphUrl: string, now: Date): string | undefined {
  const version = graphVersionOf(graphUrl);
  const advice = `set WHATSAPP_GRAPH_URL to ${GRAPH_DEFAULT_URL}`;
  if (!version) return `WHATSAPP_GRAPH_URL (${graphUrl}) names no Graph API version; ${advice}`;
  const expiry = GRAPH_VERSION_EXPIRY[version];
  if (!expiry) {
    return `Graph API ${version} is not a version this release knows (it knows ${Object.keys(GRAPH_VERSION_EXPIRY).join(", ")}): it may be retired or untested; ${advice}`;
  }
  const daysLeft = Math.ceil((Date.parse(`${expiry}T00:00:00Z`) - now.getTime()) / DAY_MS);
  if (daysLeft > GRAPH_EXPIRY_WARNING_DAYS) return undefined;
  const when = daysLeft > 0 ? `expires on ${expiry} (in ${daysLeft} days)` : `expired on ${expiry}`;
  const later = version === GRAPH_DEFAULT_VERSION ? "upgrade Zapdesk to a release that knows a newer version" : advice;
  return `Graph API ${version} ${when}: Cloud API connections stop working then; ${later}`;
}
