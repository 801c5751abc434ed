"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useTransition } from "react";
import { isNotAShortcut } from "./typingTarget";

/**
 * j / k move to the next / previous item, n to the next failed one; ignored
 * while typing in a field. Keys pressed while a move is still loading are
 * dropped: until the next page arrives, this component still holds the
 * previous page's links, so a quick second press would land on the same row.
 */
export function KeyboardNav({
  nextHref,
  previousHref,
  nextFailedHref = null,
}: {
  nextHref: string | null;
  previousHref: string | null;
  nextFailedHref?: string | null;
}) {
  const router = useRouter();
  const [isMoving, startMove] = useTransition();
  const moving = useRef(false);
  moving.current = isMoving;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isNotAShortcut(event)) return;
      const href =
        event.key === "j" ? nextHref : event.key === "k" ? previousHref : event.key === "n" ? nextFailedHref : null;
      if (!href || moving.current) return;
      moving.current = true;
      startMove(() => router.push(href));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router, nextHref, previousHref, nextFailedHref]);
  return null;
}
