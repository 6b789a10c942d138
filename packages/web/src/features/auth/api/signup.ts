import { useMutation } from "@tanstack/react-query";
import type { SignupInput } from "@zapdesk/core";
import { request } from "../../../lib/api-client";

/** The server answers the same whether the email was free or taken (it reveals no account). */
export const signup = (input: SignupInput) =>
  request<{ message: string }>("/auth/signup", { method: "POST", body: input, skipSessionHandling: true });

export function useSignup() {
  return useMutation({ mutationFn: signup, meta: { handlesErrors: true } });
}
