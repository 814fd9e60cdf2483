"use client";
// One Tab stop for a group of buttons (a field's bars): the arrow keys, Home and End move
// between them, so a summary of many fields is not hundreds of Tab presses.
import { useRef, useState, type KeyboardEvent } from "react";

export function useRoving(count: number) {
  const [active, setActive] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const current = Math.max(0, Math.min(active, count - 1));

  function onKeyDown(e: KeyboardEvent<HTMLButtonElement>, i: number) {
    const to = { ArrowDown: i + 1, ArrowRight: i + 1, ArrowUp: i - 1, ArrowLeft: i - 1, Home: 0, End: count - 1 }[e.key];
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const next = Math.max(0, Math.min(count - 1, to));
    setActive(next);
    buttons.current[next]?.focus();
  }

  return (i: number) => ({
    ref: (el: HTMLButtonElement | null) => {
      buttons.current[i] = el;
    },
    tabIndex: i === current ? 0 : -1,
    onFocus: () => setActive(i),
    onKeyDown: (e: KeyboardEvent<HTMLButtonElement>) => onKeyDown(e, i),
  });
}
