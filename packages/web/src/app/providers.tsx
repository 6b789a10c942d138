import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { I18nextProvider } from "react-i18next";
import { Toaster } from "../components/ui/toaster";
import { AppearanceProvider } from "../lib/appearance";
import { AuthProvider } from "../lib/auth";
import i18n from "../lib/i18n";
import { createQueryClient } from "../lib/query-client";

export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <I18nextProvider i18n={i18n}>
      <AppearanceProvider>
        <QueryClientProvider client={client}>
          <AuthProvider>
            {children}
            <Toaster />
          </AuthProvider>
        </QueryClientProvider>
      </AppearanceProvider>
    </I18nextProvider>
  );
}
