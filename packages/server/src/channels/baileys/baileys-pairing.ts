import { randomBytes } from "node:crypto";
import {
  type AuthenticationCreds,
  type BinaryNode,
  Browsers,
  buildAckStanza,
  getBinaryNodeChild,
  type WABrowserDescription,
} from "@whiskeysockets/baileys";
import type { ConnectionStatusReason } from "@zapdesk/core";
import { isPaired } from "./baileys-close.js";
import type { BaileysLogger } from "./baileys-logger.js";

/**
 * Linking a new device, where Baileys 7.0.0-rc14 falls short of what WhatsApp does in late 2026
 * (channels.md §4.1): it drops the `companion_reg_refresh` notification, it sends the pairing-code
 * request without looking at WhatsApp's answer, and it waits forever for a `pair-success` that
 * may never come.
 */

/**
 * The browser a pairing-code request names. WhatsApp answers 400 to a `companion_platform_display`
 * that is not a real browser over a real OS ("Chrome (Windows)" passes, "Zapdesk (Ubuntu)" fails),
 * and Baileys builds it as `${browser[1]} (${browser[0]})`.
 */
export const PAIRING_CODE_BROWSER: WABrowserDescription = Browsers.windows("Chrome");

/** How long WhatsApp gets to answer a pairing-code request before the code is shown anyway. */
export const PAIRING_ANSWER_MS = 20_000;
/** How long a link the phone has accepted (the code typed) may go without `pair-success`. */
export const PAIR_SUCCESS_WAIT_MS = 60_000;

/** The parts of Baileys' socket the pairing uses; a FakeSocket without them pairs the old way. */
export interface PairingSocket {
  requestPairingCode(phoneNumber: string): Promise<string>;
  /** Baileys' frame router: every server node is emitted as `CB:tag,attr:value,child` and its shorter forms. */
  ws?: { on(event: string, listener: (node: BinaryNode) => void): unknown };
  generateMessageTag?: () => string;
  waitForMessage?: (id: string, timeoutMs?: number) => Promise<unknown>;
  sendNode?: (node: BinaryNode) => Promise<void>;
}

export interface PairingDeps {
  socket: PairingSocket;
  /** The socket's own credentials object: Baileys verifies `pair-success` against it. */
  creds: AuthenticationCreds;
  saveCreds(): Promise<void>;
  /** Pairing by phone number: the code is asked for this number instead of showing the QR. */
  pairingPhone?: string;
  /** Whether this socket is still the session's. */
  current(): boolean;
  logger: BaileysLogger;
  onQr(qr: string): void;
  onPairingCode(code: string): void;
  /** The link cannot complete on this socket: end it and report why. */
  fail(statusReason: ConnectionStatusReason, error: string): void;
  answerMs?: number;
  stallMs?: number;
}

export interface Pairing {
  /** Baileys offered a QR (a new ref, or the same one again). */
  qr(qr: string): void;
  /** `pair-success` was accepted (Baileys' isNewLogin). */
  paired(): void;
  /** The socket closed before pairing: why, when it was more than nobody scanning in time. */
  closeReason(): ConnectionStatusReason | undefined;
  stop(): void;
}

const QR_PREFIX = "https://wa.me/settings/linked_devices#";

/**
 * rc14's QR is `…#<ref>,<noise>,<identity>,<adv secret>,<platform>` (buildPairingQRData). The
 * socket captured the ADV secret when the refs arrived, so each later ref must be rewritten with
 * the current one. Anything else is passed on unchanged.
 */
export function withAdvSecret(qr: string, secret: string): string {
  const parts = qrParts(qr);
  if (!parts) return qr;
  parts[3] = secret;
  return QR_PREFIX + parts.join(",");
}

function qrParts(qr: string): string[] | undefined {
  if (!qr.startsWith(QR_PREFIX)) return undefined;
  const parts = qr.slice(QR_PREFIX.length).split(",");
  return parts.length === 5 ? parts : undefined;
}

/**
 * A pairing code that was never confirmed left `me` behind (and, once the code was typed,
 * `registered`): the next connection starts the registration afresh.
 */
export function forgetUnconfirmedPairing(creds: AuthenticationCreds): void {
  if (isPaired(creds) || (!creds.me && !creds.registered)) return;
  creds.me = undefined;
  creds.pairingCode = undefined;
  creds.registered = false;
}

/** Baileys' tags are `<prefix><counter>`: the one after `tag`. */
export function nextTag(tag: string): string | undefined {
  const match = /^(.*?)(\d+)$/.exec(tag);
  return match ? `${match[1]}${Number(match[2]) + 1}` : undefined;
}

function describeError(node: BinaryNode): string | undefined {
  const error = getBinaryNodeChild(node, "error");
  if (!error) return undefined;
  return [error.attrs.code, error.attrs.text].filter(Boolean).join(" ") || "error";
}

export function startPairing(deps: PairingDeps): Pairing {
  const { socket, creds, logger } = deps;
  const stallMs = deps.stallMs ?? PAIR_SUCCESS_WAIT_MS;
  let lastQr: string | undefined;
  let codeRequested = false;
  /** The phone took part (typed the code, or answered a scan with pair-success): a close is not "nobody scanned". */
  let phoneAnswered = false;
  let pairSuccessSeen = false;
  let paired = false;
  let stallTimer: NodeJS.Timeout | undefined;

  const show = (qr: string) => {
    lastQr = withAdvSecret(qr, creds.advSecretKey);
    deps.onQr(lastQr);
  };

  /**
   * WhatsApp retired the secret the QR carries: a new 32-byte secret, persisted, then the QR of
   * the current ref again with it, as WhatsApp Web does. A code pairing is left alone: its secret
   * is derived from the code exchange, which happens later and overwrites it.
   */
  async function refresh(node: BinaryNode) {
    if (!deps.current() || paired) return;
    if (!getBinaryNodeChild(node, "companion_reg_refresh") && !getBinaryNodeChild(node, "pair-device-rotate-qr")) return;
    // rc14 cannot ack before the device has an identity (it reads creds.me.id): WhatsApp Web does.
    if (!creds.me) socket.sendNode?.(buildAckStanza(node)).catch(() => {});
    if (deps.pairingPhone) return;
    // In place: Baileys checks the next pair-success against this very object.
    creds.advSecretKey = randomBytes(32).toString("base64");
    try {
      await deps.saveCreds();
    } catch (error) {
      // The socket still holds the new secret, and pairing saves the credentials again.
      logger.error({ err: error }, "could not save the refreshed pairing secret");
    }
    logger.info("WhatsApp refreshed the pairing registration: new QR for the current ref");
    if (lastQr && deps.current() && !paired) show(lastQr);
  }

  async function requestCode(phone: string) {
    // Baileys sends the request without waiting for WhatsApp's answer, and makes the code itself.
    // Its tags count up, so the request's is the one after a tag taken just before: nothing can
    // take one in between, requestPairingCode numbers its stanza before its first await.
    const tag = socket.generateMessageTag ? nextTag(socket.generateMessageTag()) : undefined;
    const answer = tag && socket.waitForMessage ? socket.waitForMessage(tag, deps.answerMs ?? PAIRING_ANSWER_MS) : undefined;
    answer?.catch(() => {});
    let code: string;
    try {
      code = await socket.requestPairingCode(phone);
    } catch (error) {
      // It could not be sent: the socket is closing, and its close says why.
      logger.warn({ err: error }, "could not ask WhatsApp for a pairing code");
      return;
    }
    const node = (await answer?.catch(() => undefined)) as BinaryNode | undefined;
    if (!deps.current()) return;
    const refusal = node ? describeError(node) : undefined;
    if (refusal) {
      deps.fail("PAIRING_CODE_REFUSED", `WhatsApp refused the pairing code request: ${refusal}`);
      return;
    }
    if (answer && !node) logger.warn("WhatsApp did not answer the pairing code request; showing the code anyway");
    deps.onPairingCode(code);
  }

  function stalled() {
    if (!deps.current() || paired) return;
    deps.fail("PAIRING_STALLED", `WhatsApp did not confirm the link within ${Math.round(stallMs / 1000)} s`);
  }

  socket.ws?.on("CB:notification,type:companion_reg_refresh", (node) => void refresh(node));
  // The phone typed the code: Baileys answers with companion_finish, and pair-success should follow.
  socket.ws?.on("CB:notification,type:link_code_companion_reg", (node) => {
    if (getBinaryNodeChild(node, "link_code_companion_reg")?.attrs.stage !== "primary_hello") return;
    phoneAnswered = true;
    clearTimeout(stallTimer);
    stallTimer = setTimeout(stalled, stallMs);
    stallTimer.unref?.();
  });
  socket.ws?.on("CB:iq,,pair-success", () => {
    phoneAnswered = true;
    pairSuccessSeen = true;
  });

  return {
    qr(qr) {
      if (!deps.pairingPhone) {
        show(qr);
        return;
      }
      // The socket is ready for a pairing request once it offers its first QR.
      if (codeRequested) return;
      codeRequested = true;
      void requestCode(deps.pairingPhone);
    },
    paired() {
      paired = true;
      clearTimeout(stallTimer);
    },
    closeReason() {
      if (paired) return undefined;
      // Baileys refused the pair-success (its signature did not verify against our secret).
      if (pairSuccessSeen) return "PAIRING_FAILED";
      if (phoneAnswered) return "PAIRING_STALLED";
      return undefined;
    },
    stop() {
      clearTimeout(stallTimer);
    },
  };
}
