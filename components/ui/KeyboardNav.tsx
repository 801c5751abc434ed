"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** j / k move to the next / previous item, n to the next failed one; ignored while typing in a field. */
export function KeyboardNav({ nextHref, previousHref, nextFailedHref = null }: { nextHref: string | null; previousHref: string | null; nextFailedHref?: string | null }) {
  const router = useRouter();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.metaKey || event.ctrlKey || event.altKey || target?.closest("input, textarea, select, [contenteditable=true]")) return;
      if (event.key === "j" && nextHref) router.push(nextHref);
      if (event.key === "k" && previousHref) router.push(previousHref);
      if (event.key === "n" && nextFailedHref) router.push(nextFailedHref);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router, nextHref, previousHref, nextFailedHref]);
  return null;
}
