import { hash, verify } from "@node-rs/argon2";

// argon2id (the library's default algorithm) with its default cost.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}
