import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api-client";
import { toastError } from "./error-handler";

/**
 * Query failures toast through the generic handler; mutations toast unless the
 * caller handles the error itself (forms that map field errors pass `meta.handlesErrors`).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
    },
    queryCache: new QueryCache({ onError: (error) => toastError(error) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.meta?.handlesErrors) toastError(error);
      },
    }),
  });
}
