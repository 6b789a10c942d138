import { createECDH } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../../config.js";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const FILE = ".vapid.json";

/** A fresh P-256 key pair in the form web push wants: uncompressed public point and raw private scalar, base64url. */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { publicKey: ecdh.getPublicKey("base64url"), privateKey: ecdh.getPrivateKey().toString("base64url").padStart(43, "A") };
}

function readStored(file: string): { publicKey: string; privateKey: string } | undefined {
  try {
    const stored = JSON.parse(readFileSync(file, "utf8")) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof stored.publicKey === "string" && typeof stored.privateKey === "string") {
      return { publicKey: stored.publicKey, privateKey: stored.privateKey };
    }
  } catch {
    // first start, or an unreadable file: generate below
  }
  return undefined;
}

/**
 * The keys push is signed with: VAPID_* when given; otherwise (embedded mode) generated into
 * DATA_DIR/.vapid.json on first start and read back after, so subscriptions survive restarts.
 * Production without keys has no push (undefined), like it has no generated JWT secrets.
 */
export function resolveVapid(config: Config): VapidKeys | undefined {
  const subject =
    config.vapid?.subject ?? (config.publicUrl?.startsWith("https://") ? config.publicUrl : `mailto:${config.adminEmail}`);
  const given = config.vapid;
  if (given?.publicKey && given.privateKey) return { publicKey: given.publicKey, privateKey: given.privateKey, subject };
  if (config.env === "production") return undefined;
  const file = join(config.dataDir, FILE);
  let keys = readStored(file);
  if (!keys) {
    keys = generateVapidKeys();
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  }
  return { ...keys, subject };
}
