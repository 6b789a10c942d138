import type { Connection, Message, RuleEventSummary, Ticket } from "@zapdesk/core";

/** Records as the server presents them, for tests that only care about a few fields. */
export function aConnection(over: Partial<Connection> = {}): Connection {
  return {
    id: 3,
    name: "Front desk",
    provider: "baileys",
    status: "CONNECTED",
    statusReason: null,
    qrcode: "",
    pairingCode: "",
    pairingPhone: null,
    retries: 0,
    isDefault: true,
    greetingMessage: "",
    farewellMessage: "",
    ratingMessage: "",
    ratingTimeoutMinutes: 1440,
    updatedAt: "2026-01-01T10:00:00.000Z",
    queues: [],
    pacing: { minGapMs: 1000, jitterMs: 1000 },
    cloud: null,
    health: null,
    restriction: null,
    ...over,
  };
}

export function aCloudConnection(over: Partial<Connection> = {}): Connection {
  return aConnection({
    id: 8,
    name: "Official",
    provider: "cloud",
    pacing: { minGapMs: 0, jitterMs: 0 },
    cloud: {
      phoneNumberId: "106540352242922",
      businessAccountId: "102290129340398",
      verifyToken: "stored-verify-token-0123456789",
      webhookUrl: "/api/webhooks/whatsapp/8",
      accessTokenSet: true,
      appSecretSet: true,
    },
    ...over,
  });
}

export function aMessage(over: Partial<Message> = {}): Message {
  return {
    id: 10,
    ticketId: 7,
    body: "hello",
    fromMe: false,
    read: true,
    ack: 0,
    mediaType: "chat",
    mediaUrl: null,
    mediaName: null,
    mediaError: null,
    isDeleted: false,
    isEdited: false,
    fromBot: false,
    automation: null,
    isNote: false,
    mentions: [],
    error: null,
    reactions: [],
    createdAt: "2026-03-04T12:34:00.000Z",
    updatedAt: "2026-03-04T12:34:00.000Z",
    contact: null,
    user: null,
    quotedMsg: null,
    ...over,
  };
}

export function aTicket(over: Partial<Ticket> = {}): Ticket {
  return {
    id: 7,
    status: "open",
    rating: null,
    unreadMessages: 0,
    lastMessage: "",
    isGroup: false,
    userId: 2,
    queueId: null,
    contactId: 5,
    whatsappId: 1,
    createdAt: "2026-01-01T10:00:00.000Z",
    updatedAt: "2026-01-01T10:00:00.000Z",
    contact: { id: 5, name: "Maria", number: "5511988887777", profilePicUrl: "" },
    queue: null,
    user: null,
    whatsapp: { id: 1, name: "Main", provider: "baileys" },
    lastInboundAt: null,
    tags: [],
    ...over,
  };
}

/** What an automation rule reacted to: a customer's "quero cancelar" on ticket 31. */
export function aRuleEvent(over: Partial<RuleEventSummary> = {}): RuleEventSummary {
  return {
    kind: "messageReceived",
    ticketId: 31,
    messageId: 5,
    text: "quero cancelar",
    tagId: null,
    previous: null,
    depth: 0,
    at: "2026-12-04T10:00:00.000Z",
    ...over,
  };
}
