import { hash, verify } from "@node-rs/argon2";
import bcrypt from "bcryptjs";

// argon2id (the library's default algorithm) with its default cost.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** A bcrypt hash carried over from a Whaticket-family system (issue 21): `$2a$`/`$2b$`/`$2y$`. */
export const isImportedHash = (hashed: string) => /^\$2[aby]\$\d{2}\$/.test(hashed);

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    if (isImportedHash(hashed)) return await bcrypt.compare(password, hashed);
    return await verify(hashed, password);
  } catch {
    return false;
  }
}
