"use client";

import { useRememberFocus } from "./useKeepFocus";

/** Notes, from the page's shell, the table control or card a reviewer uses, so the next view can give the focus back. */
export function RememberFocus() {
  useRememberFocus();
  return null;
}
