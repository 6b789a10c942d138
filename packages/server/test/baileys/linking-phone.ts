import {
  aesDecryptCTR,
  aesDecryptGCM,
  aesEncryptCTR,
  type BinaryNode,
  Curve,
  derivePairingCodeKey,
  getBinaryNodeChild,
  getBinaryNodeChildBuffer,
  hkdf,
  hmacSign,
  proto,
  S_WHATSAPP_NET,
  WA_ADV_ACCOUNT_SIG_PREFIX,
} from "@whiskeysockets/baileys";

/**
 * WhatsApp's server and the primary phone, as a new companion sees them while it links: the
 * stanzas they send (refs, the registration refresh, the phone's code hello, pair-success), built
 * with real keys and signatures so that Baileys' own checks pass or fail as they would.
 */

let sequence = 0;
const nextId = () => `srv-${++sequence}`;
const now = () => String(Math.floor(Date.now() / 1000));

/** The refs a new companion gets once connected: each one is a QR (the first lives longest). */
export function pairDevice(refs: string[]): BinaryNode {
  return {
    tag: "iq",
    attrs: { from: S_WHATSAPP_NET, type: "set", id: nextId(), xmlns: "md" },
    content: [
      {
        tag: "pair-device",
        attrs: {},
        content: refs.map((ref) => ({ tag: "ref", attrs: {}, content: Buffer.from(ref) })),
      },
    ],
  };
}

/** WhatsApp retires the companion's registration while its QR is shown (since 2026-07-28). */
export function registrationRefresh(
  child: "companion_reg_refresh" | "pair-device-rotate-qr" = "companion_reg_refresh",
): BinaryNode {
  return {
    tag: "notification",
    attrs: { from: S_WHATSAPP_NET, type: "companion_reg_refresh", id: nextId(), t: now() },
    content: [{ tag: child, attrs: {} }],
  };
}

export const answer = (request: BinaryNode, content?: BinaryNode[]): BinaryNode => ({
  tag: "iq",
  attrs: { from: S_WHATSAPP_NET, type: "result", id: request.attrs.id },
  ...(content ? { content } : {}),
});

export const refusal = (request: BinaryNode, code: string, text: string): BinaryNode => ({
  tag: "iq",
  attrs: { from: S_WHATSAPP_NET, type: "error", id: request.attrs.id },
  content: [{ tag: "error", attrs: { code, text } }],
});

/** The companion's QR: `…#<ref>,<noise>,<identity>,<adv secret>,<platform>`. */
export function qrFields(qr: string) {
  const [ref, noise, identity, adv, platform] = qr.slice(qr.indexOf("#") + 1).split(",");
  return { ref, noise, identity, adv, platform };
}

export const DEVICE = { jid: "5511900000000:12@s.whatsapp.net", lid: "99990000000001:12@lid" };

/** The number's phone: its own identity, and what it sends through WhatsApp to link a companion. */
export function primaryPhone() {
  const identity = Curve.generateKeyPair();
  const ephemeral = Curve.generateKeyPair();
  let companionEphemeral: Buffer | undefined;
  return {
    identity,
    /**
     * pair-success as WhatsApp relays it: our device identity signed with the phone's account key
     * over the companion's identity key, and an HMAC keyed by the ADV secret the phone holds (the
     * one its QR carried, or the one derived from the code exchange).
     */
    pairSuccess(companionIdentity: Uint8Array, advSecret: string): BinaryNode {
      const deviceDetails = proto.ADVDeviceIdentity.encode({ rawId: 4242, timestamp: Number(now()), keyIndex: 1 }).finish();
      const accountSignature = Curve.sign(
        identity.private,
        Buffer.concat([WA_ADV_ACCOUNT_SIG_PREFIX, deviceDetails, companionIdentity]),
      );
      const details = proto.ADVSignedDeviceIdentity.encode({
        details: deviceDetails,
        accountSignatureKey: identity.public,
        accountSignature,
      }).finish();
      const hmac = hmacSign(details, Buffer.from(advSecret, "base64"));
      return {
        tag: "iq",
        attrs: { from: S_WHATSAPP_NET, type: "set", id: nextId(), xmlns: "md", t: now() },
        content: [
          {
            tag: "pair-success",
            attrs: {},
            content: [
              {
                tag: "device-identity",
                attrs: {},
                content: proto.ADVSignedDeviceIdentityHMAC.encode({ details, hmac }).finish(),
              },
              { tag: "platform", attrs: { name: "android" } },
              { tag: "device", attrs: { jid: DEVICE.jid, lid: DEVICE.lid } },
            ],
          },
        ],
      };
    },
    /** The phone's answer once the code is typed: its ephemeral key wrapped with the code, and its identity. */
    async codeHello(companionHello: BinaryNode, code: string): Promise<BinaryNode> {
      const reg = getBinaryNodeChild(companionHello, "link_code_companion_reg");
      const wrapped = getBinaryNodeChildBuffer(reg, "link_code_pairing_wrapped_companion_ephemeral_pub") as Buffer;
      const companionKey = await derivePairingCodeKey(code, wrapped.subarray(0, 32));
      companionEphemeral = aesDecryptCTR(wrapped.subarray(48, 80), companionKey, wrapped.subarray(32, 48));
      const salt = Buffer.alloc(32, 7);
      const iv = Buffer.alloc(16, 9);
      const key = await derivePairingCodeKey(code, salt);
      return {
        tag: "notification",
        attrs: { from: S_WHATSAPP_NET, type: "link_code_companion_reg", id: nextId(), t: now() },
        content: [
          {
            tag: "link_code_companion_reg",
            attrs: { jid: reg?.attrs.jid ?? "", stage: "primary_hello" },
            content: [
              {
                tag: "link_code_pairing_wrapped_primary_ephemeral_pub",
                attrs: {},
                content: Buffer.concat([salt, iv, aesEncryptCTR(ephemeral.public, key, iv)]),
              },
              { tag: "primary_identity_pub", attrs: {}, content: identity.public },
              { tag: "link_code_pairing_ref", attrs: {}, content: Buffer.from("code-ref-1") },
            ],
          },
        ],
      };
    },
    /** The ADV secret both sides derive from the code exchange, read from the companion's companion_finish. */
    codeSecret(companionFinish: BinaryNode): string {
      if (!companionEphemeral) throw new Error("the phone has not sent its hello");
      const reg = getBinaryNodeChild(companionFinish, "link_code_companion_reg");
      const bundle = getBinaryNodeChildBuffer(reg, "link_code_pairing_wrapped_key_bundle") as Buffer;
      const companionIdentity = getBinaryNodeChildBuffer(reg, "companion_identity_public") as Buffer;
      const shared = Curve.sharedKey(ephemeral.private, companionEphemeral);
      const bundleKey = hkdf(shared, 32, { salt: bundle.subarray(0, 32), info: "link_code_pairing_key_bundle_encryption_key" });
      const plain = aesDecryptGCM(bundle.subarray(44), Buffer.from(bundleKey), bundle.subarray(32, 44), Buffer.alloc(0));
      const random = plain.subarray(64, 96);
      const identityShared = Curve.sharedKey(identity.private, companionIdentity);
      return Buffer.from(hkdf(Buffer.concat([shared, identityShared, random]), 32, { info: "adv_secret" })).toString("base64");
    },
  };
}
