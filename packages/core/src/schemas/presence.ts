import { z } from "zod";

/** Issue 13: online (a socket, not idle), away (every socket idle or "Away"), offline (no socket). */
export const PRESENCE_STATUSES = ["online", "away", "offline"] as const;
export const presenceStatusSchema = z.enum(PRESENCE_STATUSES);
export type PresenceStatus = z.infer<typeof presenceStatusSchema>;

/** What the web sends over its socket: this tab is idle / chose Away, or is active again. */
export const presenceInputSchema = z.enum(["online", "away"]);

export const userPresenceSchema = z.object({
  userId: z.number(),
  name: z.string(),
  status: presenceStatusSchema,
  /** Tickets open (being worked on) by this user. */
  openTickets: z.number(),
  /** The user's queues (the transfer dialog lists a queue's agents). */
  queueIds: z.array(z.number()),
});
export type UserPresence = z.infer<typeof userPresenceSchema>;
export const userPresenceListSchema = z.array(userPresenceSchema);

/** The dashboard's "Agents" card: presence and load, with the pending tickets of the agent's queues. */
export const agentLoadSchema = userPresenceSchema.extend({
  profile: z.string(),
  /** Pending (waiting) tickets in this agent's queues. */
  pendingInQueues: z.number(),
});
export type AgentLoad = z.infer<typeof agentLoadSchema>;
export const agentLoadListSchema = z.array(agentLoadSchema);

/** Issue 13: automatic assignment (admin): per queue on/off, per agent a capacity (null: unlimited). */
export const queueRoutingInputSchema = z.strictObject({ autoAssign: z.boolean() });
export const userRoutingInputSchema = z.strictObject({ maxOpenTickets: z.number().int().min(1).max(1000).nullable() });
export const routingSettingsSchema = z.object({
  queues: z.array(z.object({ queueId: z.number(), autoAssign: z.boolean() })),
  users: z.array(z.object({ userId: z.number(), maxOpenTickets: z.number().nullable() })),
});
export type RoutingSettings = z.infer<typeof routingSettingsSchema>;
