"use client";
// The site's header and skip link, left out of the embed pages: another site frames those, and
// shows only the view.
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";

export function NotInEmbed({ children }: { children: ReactNode }) {
  const path = usePathname();
  return path === "/embed" || path?.startsWith("/embed/") ? null : children;
}
