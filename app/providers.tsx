"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { I18nProvider } from "@/components/i18n/i18n-provider";
import { TokenProvider } from "@/components/token/token-provider";

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } }),
  );
  return (
    <I18nProvider>
      <QueryClientProvider client={client}>
        <TokenProvider>{children}</TokenProvider>
      </QueryClientProvider>
    </I18nProvider>
  );
}
