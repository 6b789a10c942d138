// The access token and locale live in localStorage (spec §1, §3); every reader goes through here.
const TOKEN_KEY = "token";

export function getToken(): string | null {
  try {
    const raw = localStorage.getItem(TOKEN_KEY);
    // Whaticket stored the token JSON-encoded; accept both so an old session still works.
    return raw ? (raw.startsWith('"') ? JSON.parse(raw) : raw) : null;
  } catch {
    return null;
  }
}

export function setToken(token: string | null): void {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}
