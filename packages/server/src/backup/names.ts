/** A backup's file name: when it was made, sortable, safe in any file system and URL. */
export const backupFileName = (at = new Date()) =>
  `zapdesk-${at
    .toISOString()
    .replace(/[:.]/g, "-")
    .replace(/-\d{3}Z$/, "Z")}.zdb`;
