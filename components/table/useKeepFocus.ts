"use client";

import { useEffect } from "react";

/** Where the control to refocus is remembered across the navigation it starts (a full load for a GET form). */
const STORAGE_KEY = "assay:keep-focus";
/**
 * Longer than any page load the focus waits for: a run page of 18 metrics on a busy server took more than 15 s
 * to load and hydrate (CI's browser tests, two at a time on two cores), and the note had expired on arrival.
 * A note is consumed by the next view of the table anyway; this only stops one that no view took from acting
 * on a much later one.
 */
const KEEP_FOR_MS = 60_000;

/**
 * Keeps the reviewer's place across a server-rendered table's navigations:
 * a control marked `data-focus-key` (a pager link, the search field, the
 * metric select) gets the focus back after the page it asked for arrives, and
 * a link marked `data-focus-after` (a metric card) sends the focus to the
 * control of that key (the filter summary). The navigation itself scrolls to
 * the table (its URL ends in #rows); the element is then brought into view
 * only if it is not already.
 *
 * Two halves, mounted in different places:
 * - useRememberFocus notes the control used. It listens from the page's shell
 *   (RememberFocus), which is there as soon as the page is interactive: from
 *   the table itself, which streams in after the cards, a card used before the
 *   table arrived (a slow store, a busy server) went unnoted, and the focus
 *   was lost.
 * - useRestoreFocus gives the focus back, from a component that mounts anew
 *   with every view of the table (the rows section is keyed by the query), so
 *   it runs once per arrival.
 */
export function useRememberFocus(): void {
  useEffect(() => {
    const remember = (key: string | undefined) => {
      if (!key) return;
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ path: location.pathname, key, at: Date.now() }));
      } catch {
        // No session storage (a locked-down browser): the view still changes, only the focus is not kept.
      }
    };
    const onClick = (event: MouseEvent) => {
      const target = (event.target as Element | null)?.closest<HTMLElement>(
        // Form fields and submit buttons are remembered on submit, not on a click that only focuses them.
        "[data-focus-after], a[data-focus-key], button[data-focus-key][type=button]",
      );
      if (target) remember(target.dataset.focusAfter ?? target.dataset.focusKey);
    };
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target as HTMLFormElement;
      // The field Enter was pressed in, or the button that was clicked: whichever had the focus.
      const focused = document.activeElement as HTMLElement | null;
      const inForm = focused && form.contains(focused) ? focused : event.submitter;
      const key = inForm?.dataset.focusKey ?? form.dataset.focusKey;
      remember(key);
    };
    document.addEventListener("click", onClick, true);
    document.addEventListener("submit", onSubmit, true);
    return () => {
      document.removeEventListener("click", onClick, true);
      document.removeEventListener("submit", onSubmit, true);
    };
  }, []);
}

/** The second half (see useRememberFocus): the focus back on the control the last view was asked from. */
export function useRestoreFocus(): void {
  useEffect(() => restoreFocus(), []);
}

function restoreFocus(): void {
  let saved: { path?: string; key?: string; at?: number } | null = null;
  try {
    saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null");
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    return;
  }
  // A note left by a click that started no new view of the table (the same filter again) must not act later.
  if (!saved?.key || saved.path !== location.pathname || Date.now() - (saved.at ?? 0) > KEEP_FOR_MS) return;
  // A control the new view no longer has (Next on the last page) hands the focus to its group (the pager).
  const group = saved.key.slice(0, Math.max(0, saved.key.lastIndexOf("-")));
  // A control hidden in the new view (the column chooser's button, its panel closed again) takes no focus: its
  // group gets it.
  const keys = [saved.key, group].filter(Boolean);
  const element = focusFirst(keys);
  if (!element) return;
  const box = element.getBoundingClientRect();
  if (box.bottom > innerHeight || box.top < 0) element.scrollIntoView({ block: "nearest" });
  keepThroughReplacement(element, keys);
}

function focusFirst(keys: string[]): HTMLElement | undefined {
  return keys
    .map((key) => document.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(key)}"]`))
    .find((candidate): candidate is HTMLElement => {
      candidate?.focus({ preventScroll: true });
      return candidate != null && document.activeElement === candidate;
    });
}

/** How long after arriving a dropped focus is given back: longer than a late hydration on a busy machine. */
const KEEP_THROUGH_MS = 5_000;

/**
 * The focus given back on arrival can be dropped to the body just after, with nobody touching the page: a part
 * that hydrates late renders anew and replaces the focused element, or the browser's scroll to the #rows
 * fragment, processed when the streamed page finishes loading, resets the focus (both seen on CI's busy two
 * cores, the column chooser's summary ending on BODY). For a few seconds such a drop is undone, on the control's
 * element now in the page; any key or pointer press by the reviewer ends this at once.
 */
function keepThroughReplacement(first: HTMLElement, keys: string[]): void {
  let current = first;
  const until = Date.now() + KEEP_THROUGH_MS;
  const stop = () => {
    clearInterval(timer);
    removeEventListener("keydown", stop, true);
    removeEventListener("pointerdown", stop, true);
  };
  const timer = setInterval(() => {
    if (Date.now() > until) return stop();
    const active = document.activeElement;
    if (active === current) return;
    // The reviewer's own move elsewhere stands.
    if (active && active !== document.body) return stop();
    const again = current.isConnected ? current : focusFirst(keys);
    again?.focus({ preventScroll: true });
    if (again && document.activeElement === again) current = again;
  }, 50);
  addEventListener("keydown", stop, true);
  addEventListener("pointerdown", stop, true);
}
