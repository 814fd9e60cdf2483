"use client";
// The header's link to the Tokens page, for admin tokens only: other tokens could not use the
// page. The way back is the site title, which links home.
import { useT } from "@/components/i18n/i18n-provider";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useScope } from "@/components/token/use-scope";

export function AdminNav() {
  const { isAdmin } = useScope();
  const t = useT();
  const current = usePathname() === "/tokens";
  if (!isAdmin) return null;
  return (
    <nav aria-label={t("tokens.nav")} className="text-sm font-medium">
      <Link
        href="/tokens"
        aria-current={current ? "page" : undefined}
        className={`rounded px-1 py-0.5 underline-offset-4 hover:underline ${current ? "underline" : "text-blue-800 dark:text-blue-300"}`}
      >
        {t("tokens.title")}
      </Link>
    </nav>
  );
}
