import type { Metadata, Viewport } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { TokenControl } from "@/components/token/token-control";
import { AdminNav } from "@/components/tokens/admin-nav";
import { NotInEmbed } from "@/components/embed/not-in-embed";
import { LanguageMenu } from "@/components/i18n/language-menu";
import { T } from "@/components/i18n/i18n-provider";
import { SiteDescription } from "@/components/i18n/site-description";
import { translate } from "@/lib/i18n";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: "Datastore Explorer",
  // English as prerendered; SiteDescription puts the reader's language in once the page runs
  description: translate("en", "en-US", "site.description"),
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  colorScheme: "light dark",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // the browser's language replaces "en" once the page hydrates (components/i18n)
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-screen bg-white text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <Providers>
          <SiteDescription />
          <NotInEmbed>
            <a
              href="#main"
              className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-zinc-900"
            >
              <T k="site.skip" />
            </a>
            <header className="border-b bg-zinc-50 dark:bg-zinc-900">
              <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-6 gap-y-3 px-4 py-3">
                <div>
                  <h1 className="text-lg font-semibold">
                    <Link href="/" className="hover:underline">
                      Datastore Explorer
                    </Link>
                  </h1>
                  <p className="text-xs text-zinc-600 dark:text-zinc-400">
                    <T k="site.tagline" />
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
                  <AdminNav />
                  <TokenControl />
                  <LanguageMenu />
                </div>
              </div>
            </header>
          </NotInEmbed>
          <main id="main" className="mx-auto max-w-7xl px-4 py-4">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
