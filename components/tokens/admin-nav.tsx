"use client";
// The header's links between the explorer and the Tokens page, for admin tokens only: other
// tokens could not use the page.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useScope } from "@/components/token/use-scope";

const LINKS = [
  { href: "/", name: "Explorer" },
  { href: "/tokens", name: "Tokens" },
] as const;

export function AdminNav() {
  const { isAdmin } = useScope();
  const pathname = usePathname();
  if (!isAdmin) return null;
  return (
    <nav aria-label="Admin" className="flex items-center gap-3 text-sm font-medium">
      {LINKS.map(({ href, name }) => {
        const current = pathname === href;
        return (
          <Link
            key={href}
            href={href}
            aria-current={current ? "page" : undefined}
            className={`rounded px-1 py-0.5 underline-offset-4 hover:underline ${current ? "underline" : "text-blue-800 dark:text-blue-300"}`}
          >
            {name}
          </Link>
        );
      })}
    </nav>
  );
}
