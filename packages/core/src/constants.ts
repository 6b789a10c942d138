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

export const CONNECTION_PROVIDERS = ["baileys", "simulator"] as const;
export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];

export const MEDIA_TYPES = ["chat", "image", "audio", "video", "document", "location", "vcard", "sticker", "call"] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

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
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

/** Settings any visitor may read (the signup screen and the embedded pages need them). */
export const PUBLIC_SETTING_KEYS: readonly SettingKey[] = ["userCreation", "salesPageUrl", "communityPageUrl"];

export const AUDIO_MIN_BYTES = 10000;
export const DEBOUNCE_MS = 500;
export const TOAST_AUTO_CLOSE_MS = 3000;
