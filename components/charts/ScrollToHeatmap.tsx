"use client";

import { useEffect } from "react";

/**
 * Brings the heatmap into view when the URL asks for it (#chunk-heatmap, after its "From row" form): the
 * grid streams in after the page's first bytes, too late for the browser's own jump to the fragment.
 */
export function ScrollToHeatmap({ targetId }: { targetId: string }) {
  useEffect(() => {
    if (location.hash === `#${targetId}`) document.getElementById(targetId)?.scrollIntoView({ block: "start" });
  }, [targetId]);
  return null;
}
