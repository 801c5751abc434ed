"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** j / k move to the next / previous item; ignored while typing in a field. */
export function KeyboardNav({ nextHref, previousHref }: { nextHref: string | null; previousHref: string | null }) {
  const router = useRouter();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.metaKey || event.ctrlKey || event.altKey || target?.closest("input, textarea, select, [contenteditable=true]")) return;
      if (event.key === "j" && nextHref) router.push(nextHref);
      if (event.key === "k" && previousHref) router.push(previousHref);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router, nextHref, previousHref]);
  return null;
}
