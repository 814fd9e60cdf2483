"use client";
import { useEffect, useState } from "react";

/** The value once it has held still for `delayMs` (null until then): a request made from it
 *  is not sent for a view the user only passed through (arrowing across radio buttons). */
export function useSettled<T>(value: T, delayMs: number): T | null {
  const [settled, setSettled] = useState<T | null>(null);
  useEffect(() => {
    const t = setTimeout(() => setSettled(() => value), delayMs);
    return () => clearTimeout(t);
  }, [value, delayMs]);
  return settled;
}
