import { z } from "zod";
import { idParam, MSG } from "./common.js";

/**
 * A phone number or group id as the simulator takes it: punctuation allowed, stored as digits.
 * "<digits>@lid" is a customer WhatsApp shows only by LID (no phone number), as real WhatsApp does.
 */
const chatNumber = z
  .string({ error: MSG.required })
  .trim()
  .transform((v) => (/^\d{5,24}@lid$/.test(v) ? v : v.replace(/\D/g, "")))
  .pipe(z.string().regex(/^\d{5,24}(@lid)?$/, MSG.invalidNumber));

/** A WhatsApp-like message id chosen by the caller; a repeated id is a duplicate delivery. */
const messageId = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(128, MSG.tooLong)
  .regex(/^[\w.:-]+$/, "Invalid id");

export const simulatorParamsSchema = z.strictObject({ whatsappId: idParam });

export const simulatorMediaSchema = z.strictObject({
  mimetype: z
    .string()
    .trim()
    .min(3)
    .max(255)
    .regex(/^[\w.+-]+\/[\w.+-]+(;.*)?$/, "Invalid mimetype"),
  filename: z.string().trim().min(1, MSG.required).max(255, MSG.tooLong),
  dataBase64: z.base64().min(1, MSG.required),
});

export const simulatorLocationSchema = z.strictObject({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  description: z.string().max(1000, MSG.tooLong).optional(),
});

export const simulatorInboundSchema = z
  .strictObject({
    /** The customer's number; for a group message, the group id. */
    from: chatNumber,
    name: z.string().trim().max(100, MSG.tooLong).optional(),
    /** Group messages: the member who wrote (defaults to `from`). */
    participant: chatNumber.optional(),
    body: z.string().max(65536, MSG.tooLong).optional(),
    media: simulatorMediaSchema.optional(),
    quotedId: messageId.optional(),
    id: messageId.optional(),
    isGroup: z.boolean().optional(),
    groupName: z.string().trim().max(100, MSG.tooLong).optional(),
    location: simulatorLocationSchema.optional(),
    vcard: z.string().min(1).max(20000, MSG.tooLong).optional(),
  })
  .refine((v) => !!(v.body?.trim() || v.media || v.location || v.vcard), {
    message: "A message needs a body, media, a location or a vCard",
    path: ["body"],
  });
export type SimulatorInbound = z.infer<typeof simulatorInboundSchema>;

/** An ack from the customer's side; -1 is WhatsApp refusing the message, with its error code and reason. */
export const simulatorAckSchema = z
  .strictObject({
    id: messageId,
    ack: z.number().int().min(-1).max(4),
    error: z.strictObject({ code: z.string().trim().min(1).max(20), title: z.string().trim().max(300) }).optional(),
  })
  .refine((v) => v.ack !== -1 || !!v.error, { message: MSG.required, path: ["error"] });
export type SimulatorAck = z.infer<typeof simulatorAckSchema>;

export const simulatorMessageRefSchema = z.strictObject({ id: messageId });

export const simulatorEditSchema = z.strictObject({
  id: messageId,
  body: z.string().min(1, MSG.required).max(65536, MSG.tooLong),
});
export type SimulatorEdit = z.infer<typeof simulatorEditSchema>;

/** A customer reacts to a message (an empty emoji withdraws the reaction). */
export const simulatorReactionSchema = z.strictObject({
  id: messageId,
  from: chatNumber,
  emoji: z.string().max(16, MSG.tooLong),
});
export type SimulatorReaction = z.infer<typeof simulatorReactionSchema>;

/** WhatsApp reveals that a LID and a phone number are the same customer. */
export const simulatorIdentitySchema = z.strictObject({
  lid: z
    .string()
    .trim()
    .regex(/^\d{5,24}@lid$/, MSG.invalidNumber),
  pn: z
    .string()
    .trim()
    .transform((v) => v.replace(/\D/g, ""))
    .pipe(z.string().min(8, MSG.invalidNumber).max(15, MSG.invalidNumber)),
});
export type SimulatorIdentity = z.infer<typeof simulatorIdentitySchema>;

export const simulatorCallSchema = z.strictObject({ from: chatNumber, isVideo: z.boolean().optional() });
export type SimulatorCall = z.infer<typeof simulatorCallSchema>;

export const simulatorOutboundQuerySchema = z.strictObject({ to: chatNumber.optional() });

export const simulatorIdResultSchema = z.object({ id: z.string() });

/** What a simulated customer's phone received from the connection. */
export const simulatorOutboundMessageSchema = z.object({
  wid: z.string(),
  to: z.string(),
  isGroup: z.boolean(),
  body: z.string(),
  media: z.object({ mimetype: z.string(), filename: z.string(), size: z.number(), asVoice: z.boolean() }).optional(),
  quotedWid: z.string().optional(),
  timestamp: z.iso.datetime(),
  /** Highest ack the customer's phone reported (1 server, 2 delivered, 3 read, 4 played). */
  ack: z.number(),
  deleted: z.boolean(),
});
export type SimulatorOutboundMessage = z.infer<typeof simulatorOutboundMessageSchema>;

export const simulatorOutboundListSchema = z.object({ messages: z.array(simulatorOutboundMessageSchema) });
