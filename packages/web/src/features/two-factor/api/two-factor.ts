import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { RecoveryCodes, Session, TwoFactorDisableInput, TwoFactorEnrolment, TwoFactorStatus } from "@zapdesk/core";
import { api, request } from "../../../lib/api-client";

/** Issue 22 §5: two-factor sign-in, the calls of the web app. */
export const twoFactorKeys = {
  status: ["two-factor", "status"] as const,
  users: ["two-factor", "users"] as const,
};

// The sign-in's second step: no session yet, so a wrong code must not "log out" anyone.
const signIn = <T>(path: string, body: object) => request<T>(path, { method: "POST", body, skipSessionHandling: true });

/** POST /auth/login/two-factor: a code from the app or a recovery code. */
export const verifyLogin = (challenge: string, code: string) => signIn<Session>("/auth/login/two-factor", { challenge, code });

/** POST /auth/login/two-factor/enrol: the secret to scan, for a user the setting requires to enrol. */
export const startLoginEnrolment = (challenge: string) =>
  signIn<TwoFactorEnrolment>("/auth/login/two-factor/enrol", { challenge });

/** POST /auth/login/two-factor/confirm: two-factor on, the session, and the recovery codes once. */
export const confirmLoginEnrolment = (challenge: string, code: string) =>
  signIn<Session & RecoveryCodes>("/auth/login/two-factor/confirm", { challenge, code });

export function useTwoFactorStatus(enabled = true) {
  return useQuery({ queryKey: twoFactorKeys.status, queryFn: () => api.get<TwoFactorStatus>("/two-factor"), enabled });
}

export function useStartEnrolment() {
  return useMutation({ mutationFn: () => api.post<TwoFactorEnrolment>("/two-factor/enrol") });
}

/** The forms show their own errors (a wrong code stays in the dialog). */
const handlesErrors = { handlesErrors: true };

export function useConfirmEnrolment() {
  const client = useQueryClient();
  return useMutation({
    meta: handlesErrors,
    mutationFn: (code: string) => api.post<RecoveryCodes>("/two-factor/confirm", { code }),
    onSuccess: () => client.invalidateQueries({ queryKey: twoFactorKeys.status }),
  });
}

export function useRenewRecoveryCodes() {
  const client = useQueryClient();
  return useMutation({
    meta: handlesErrors,
    mutationFn: (code: string) => api.post<RecoveryCodes>("/two-factor/recovery-codes", { code }),
    onSuccess: () => client.invalidateQueries({ queryKey: twoFactorKeys.status }),
  });
}

export function useDisableTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    meta: handlesErrors,
    mutationFn: (input: TwoFactorDisableInput) => api.post<{ message: string }>("/two-factor/disable", input),
    onSuccess: () => client.invalidateQueries({ queryKey: twoFactorKeys.status }),
  });
}

/** Admins: who has two-factor on (the users page offers the reset for them). */
export function useTwoFactorUsers(enabled = true) {
  return useQuery({
    queryKey: twoFactorKeys.users,
    queryFn: () => api.get<{ userIds: number[] }>("/two-factor/users"),
    enabled,
  });
}

export function useResetTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => api.delete<{ message: string }>(`/users/${userId}/two-factor`),
    onSuccess: () => client.invalidateQueries({ queryKey: twoFactorKeys.users }),
  });
}
