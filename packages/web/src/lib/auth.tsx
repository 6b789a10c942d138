import { useQueryClient } from "@tanstack/react-query";
import type { LoginResult, loginSchema, Session, TwoFactorChallenge, User } from "@zapdesk/core";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import type { z } from "zod";
import { api, forgetSession, onSessionChange, refreshedUser, refreshSession, request } from "./api-client";
import { disconnectSocket } from "./socket";
import { getToken, setToken } from "./token-storage";

interface AuthState {
  user: User | null;
  /** True until the start-up refresh answered; routes wait for it instead of bouncing to /login. */
  loading: boolean;
  /** Signs in, or answers the second step due (issue 22 §5: two-factor sign-in) without a session yet. */
  login(credentials: z.input<typeof loginSchema>): Promise<TwoFactorChallenge | undefined>;
  /** The session a second step (code or enrolment) ended with. */
  completeLogin(session: Session): void;
  logout(): Promise<void>;
  /** Realtime `user` events about oneself (name, profile, queues) land here. */
  updateUser(user: User): void;
}

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<User | null>(null);
  const [loading, setLoading] = useState(() => !!getToken());

  useEffect(() => {
    const off = onSessionChange((event) => {
      if (event === "expired") {
        disconnectSocket();
        setUser(null);
        queryClient.clear();
      } else {
        const refreshed = refreshedUser() as User | null;
        if (refreshed) setUser(refreshed);
      }
    });
    // Spec §4: on load, a stored token means "try to restore the session".
    if (getToken()) {
      refreshSession()
        .then((token) => {
          if (!token) setToken(null);
        })
        .catch(() => undefined)
        .finally(() => setLoading(false));
    }
    return off;
  }, [queryClient]);

  const completeLogin = useCallback((session: Session) => {
    setToken(session.token);
    setUser(session.user);
  }, []);

  const login = useCallback(
    async (credentials: z.input<typeof loginSchema>) => {
      const result = await request<LoginResult>("/auth/login", {
        method: "POST",
        body: credentials,
        skipSessionHandling: true,
      });
      if ("challenge" in result) return result;
      completeLogin(result);
      return undefined;
    },
    [completeLogin],
  );

  const logout = useCallback(async () => {
    // Closed first: the server drops the user's sockets on logout, and this one must not come back.
    disconnectSocket();
    try {
      await api.delete("/auth/logout");
    } catch {
      // Logging out locally matters more than the server's answer.
    }
    forgetSession();
    setUser(null);
    queryClient.clear();
  }, [queryClient]);

  const value = useMemo<AuthState>(
    () => ({ user, loading, login, completeLogin, logout, updateUser: setUser }),
    [user, loading, login, completeLogin, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const context = useContext(AuthContext);
  if (!context) throw new Error("useAuth outside AuthProvider");
  return context;
}
