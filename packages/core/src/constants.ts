import type { NotificationPreferences } from "./schemas/push.js";

export const PAGE_SIZE = {
  tickets: 40,
  messages: 20,
  contacts: 20,
  users: 20,
  quickAnswers: 20,
} as const;

export const PROFILES = ["admin", "user"] as const;
export type Profile = (typeof PROFILES)[number];

export const TICKET_STATUSES = ["pending", "open", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const CONNECTION_STATUSES = ["OPENING", "qrcode", "PAIRING", "CONNECTED", "TIMEOUT", "DISCONNECTED"] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** Statuses that light the '!' badge on the Connections drawer item (spec §2). */
export const CONNECTION_WARNING_STATUSES: readonly ConnectionStatus[] = [
  "qrcode",
  "PAIRING",
  "DISCONNECTED",
  "TIMEOUT",
  "OPENING",
];

/** baileys: WhatsApp Web by QR code or phone code; cloud: Meta's official Cloud API; simulator: built-in stand-in. */
export const CONNECTION_PROVIDERS = ["baileys", "simulator", "cloud"] as const;
export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];

/**
 * What each kind of connection can do. The web hides what a connection cannot do and the
 * server refuses it, from this one table.
 */
export interface ChannelCapabilities {
  /** Paired by scanning a QR code (and the session actions that go with it). */
  qrCode: boolean;
  /** Paired by typing an 8-character code on the phone instead of scanning. */
  pairingCode: boolean;
  deleteForEveryone: boolean;
  /** Import the phone's address book into contacts. */
  importContacts: boolean;
  profilePictures: boolean;
  groups: boolean;
  /** The customer sees "typing…" while an agent types. */
  typing: boolean;
  /** Check that a number has WhatsApp before writing to it. */
  checkNumber: boolean;
  /** Free-form messages only within 24 h of the customer's last message; templates otherwise. */
  serviceWindow: boolean;
  templates: boolean;
}

export const CHANNEL_CAPABILITIES: Record<ConnectionProvider, ChannelCapabilities> = {
  baileys: {
    qrCode: true,
    pairingCode: true,
    deleteForEveryone: true,
    importContacts: true,
    profilePictures: true,
    groups: true,
    typing: true,
    checkNumber: true,
    serviceWindow: false,
    templates: false,
  },
  simulator: {
    qrCode: true,
    pairingCode: false,
    deleteForEveryone: true,
    importContacts: true,
    profilePictures: false,
    groups: true,
    typing: true,
    checkNumber: true,
    serviceWindow: false,
    templates: false,
  },
  cloud: {
    qrCode: false,
    pairingCode: false,
    deleteForEveryone: false,
    importContacts: false,
    profilePictures: false,
    groups: false,
    typing: false,
    checkNumber: false,
    serviceWindow: true,
    templates: true,
  },
};

/** How long after the customer's last message a Cloud API connection may write free-form (Meta's rule). */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Why a connection is in its status, for the admin (the web explains each and its fix):
 * CLIENT_OUTDATED (405), REPLACED (440, the session opened elsewhere), BANNED (402/406),
 * LOGGED_OUT (unpaired from the phone), QR_TIMEOUT (nobody scanned), TOKEN_INVALID (Cloud API 190),
 * CLOUD_UNREACHABLE (the Graph API did not answer), CLOUD_ERROR (any other Graph error),
 * NO_OWNER (scaled out: the process that held the connection stopped or died; status TIMEOUT, and the
 * reason stays while another process opens it, until CONNECTED).
 * Linking a phone (QR connections, DISCONNECTED): PAIRING_STALLED (the phone took the code but WhatsApp
 * never confirmed the link), PAIRING_FAILED (WhatsApp's confirmation did not match this QR's secret),
 * PAIRING_CODE_REFUSED (WhatsApp refused to issue a pairing code; the last error says why).
 */
export const CONNECTION_STATUS_REASONS = [
  "CLIENT_OUTDATED",
  "REPLACED",
  "BANNED",
  "LOGGED_OUT",
  "QR_TIMEOUT",
  "TOKEN_INVALID",
  "CLOUD_UNREACHABLE",
  "CLOUD_ERROR",
  "NO_OWNER",
  "PAIRING_STALLED",
  "PAIRING_FAILED",
  "PAIRING_CODE_REFUSED",
] as const;
export type ConnectionStatusReason = (typeof CONNECTION_STATUS_REASONS)[number];

/**
 * What sent an automatic message (`fromBot`): a queue's bot (Typebot, a webhook bot), the greeting
 * menu, an automation rule, or Zapdesk itself (farewell, satisfaction question, protocol, out-of-hours,
 * consent and call notices; also every automatic message stored before the kind was recorded).
 */
export const AUTOMATIONS = ["bot", "menu", "rule", "system"] as const;
export type Automation = (typeof AUTOMATIONS)[number];

/**
 * `unsupported`: a customer message of a kind Zapdesk cannot show (its WhatsApp type is the body),
 * stored so that the agent knows the customer wrote.
 * `placeholder`: a customer message WhatsApp delivered but this device could not decrypt (QR
 * connections): stored empty, shown as "waiting for this message", replaced under the same id when
 * the real copy arrives (the sender's retry or the phone's resend).
 */
export const MEDIA_TYPES = [
  "chat",
  "image",
  "audio",
  "video",
  "document",
  "location",
  "vcard",
  "sticker",
  "call",
  "unsupported",
  "placeholder",
] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/**
 * A ticket's preview (`lastMessage`) while its newest message is a placeholder: clients show their
 * own words for it. The hourglass reads right where no translation runs (push notifications); the
 * word joiner after it keeps a customer who sends a bare hourglass from being read as a placeholder.
 */
export const PLACEHOLDER_PREVIEW = "\u231B\u2060";

/**
 * After this long a placeholder is shown as a message that did not arrive (ask the customer to send
 * it again, or read it on the phone) instead of one still on its way. A real copy arriving later
 * still replaces it.
 */
export const PLACEHOLDER_WAIT_MS = 60 * 60 * 1000;

/**
 * Where an inbound message's media stands when it is not stored yet (the message's `mediaError`):
 * still downloading, refused for its size, or failed (retried in the background for a week).
 */
export const MEDIA_STATE = {
  pending: "MEDIA_PENDING",
  tooLarge: "ERR_MEDIA_TOO_LARGE",
  failed: "ERR_WAPP_DOWNLOAD_MEDIA",
  /** Issue 21: an imported message whose file was not in the old system's media folder (never retried). */
  notInOldSystem: "ERR_IMPORT_MEDIA_MISSING",
  /** Issue 22 §1: the file was removed by a retention policy (the message stays). */
  removedByRetention: "MEDIA_REMOVED_RETENTION",
} as const;

/** Ack of a message WhatsApp refused (the reason is kept on the message); 0 queued … 4 played. */
export const ACK_FAILED = -1;

/** Choices for `timeCreateNewTicket`, in seconds (spec §9). */
export const NEW_TICKET_DELAYS = [10, 30, 60, 300, 1800, 3600, 7200, 21600, 43200, 86400, 172800] as const;

export const NO_QUEUE_COLOR = "#7C7C7C";

/** Fixed palette offered by the queue colour picker (spec §2, 50 colours). */
export const QUEUE_PALETTE = [
  "#B80000",
  "#DB3E00",
  "#FCCB00",
  "#008B02",
  "#006B76",
  "#1273DE",
  "#004DCF",
  "#5300EB",
  "#EB9694",
  "#FAD0C3",
  "#FEF3BD",
  "#C1E1C5",
  "#BEDADC",
  "#C4DEF6",
  "#BED3F3",
  "#D4C4FB",
  "#4D4D4D",
  "#999999",
  "#FFFFFF",
  "#F44E3B",
  "#FE9200",
  "#FCDC00",
  "#DBDF00",
  "#A4DD00",
  "#68CCCA",
  "#73D8FF",
  "#AEA1FF",
  "#FDA1FF",
  "#333333",
  "#808080",
  "#CCCCCC",
  "#D33115",
  "#E27300",
  "#FCC400",
  "#B0BC00",
  "#68BC00",
  "#16A5A5",
  "#009CE0",
  "#7B64FF",
  "#FA28FF",
  "#000000",
  "#666666",
  "#B3B3B3",
  "#9F0500",
  "#C45100",
  "#FB9E00",
  "#808900",
  "#194D33",
  "#0C797D",
  "#0062B1",
] as const;

export const SETTING_KEYS = [
  "userCreation",
  "userApiToken",
  "timeCreateNewTicket",
  "call",
  "CheckMsgIsGroup",
  "protocolWebhookUrl",
  "salesPageUrl",
  "communityPageUrl",
  /** Issue 11: outbound webhooks may target private and loopback addresses ("enabled") or not. */
  "webhookAllowPrivate",
  /** Issue 13: agents see the tickets still at the greeting menu ("enabled") or only admins do. */
  "showChoosingQueue",
  /** Issue 22: the protocol webhook may call a private or loopback address ("enabled") or not. */
  "protocolWebhookAllowPrivate",
  /** Issue 22 §5: who must sign in with a second factor: "off", "admins" or "everyone". */
  "twoFactorRequired",
  /** Issue 23 §5: the first agent who resolves an unowned contact's ticket becomes its owner ("enabled") or not. */
  "ownerOnResolve",
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

/** Settings any visitor may read (the signup screen and the embedded pages need them). */
export const PUBLIC_SETTING_KEYS: readonly SettingKey[] = [
  "userCreation",
  "salesPageUrl",
  "communityPageUrl",
  // Issue 13: an agent's list shows the "Choosing a queue" group when this is enabled.
  "showChoosingQueue",
];

export const AUDIO_MIN_BYTES = 10000;
export const DEBOUNCE_MS = 500;
/**
 * Issue 19: the shortest search term (characters, after trimming); shorter ones answer
 * ERR_SEARCH_TOO_SHORT. One letter matches almost every message: a scan of the whole history.
 */
export const SEARCH_MIN_LENGTH = 2;
/** A search term the server refuses: not empty, and shorter than SEARCH_MIN_LENGTH characters. */
export const isSearchTooShort = (term: string) => {
  const length = [...term.trim()].length;
  return length > 0 && length < SEARCH_MIN_LENGTH;
};
export const TOAST_AUTO_CLOSE_MS = 3000;

/** A user's notification preferences until they change them (kept out of the zod schemas so the web app can read it without zod). */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = { sound: true, desktop: true, push: true };
