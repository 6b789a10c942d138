import type { InboundCall } from "../../channels/channel.js";

const duration = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;

/**
 * The ticket line of a customer's call, in the language of the other lines the server writes: a
 * call ringing ("recebida", all a QR connection ever knows), or, once the Cloud API reports its
 * end, missed ("perdida") or answered elsewhere with its length.
 */
export function callLine(call: InboundCall): string {
  const kind = call.isVideo ? "Chamada de vídeo" : "Chamada de voz";
  if (!call.ended) return `${kind} recebida`;
  if (!call.ended.answered) return `${kind} perdida`;
  const seconds = call.ended.durationSeconds;
  return seconds === undefined ? `${kind} atendida` : `${kind} atendida (${duration(seconds)})`;
}
