import { useMutation } from "@tanstack/react-query";
import type { SignupInput, User } from "@zapdesk/core";
import { request } from "../../../lib/api-client";

export const signup = (input: SignupInput) =>
  request<User>("/auth/signup", { method: "POST", body: input, skipSessionHandling: true });

export function useSignup() {
  return useMutation({ mutationFn: signup, meta: { handlesErrors: true } });
}
