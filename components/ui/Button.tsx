import Link from "next/link";
import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ComponentProps } from "react";

const VARIANTS = {
  /** The one action a view is for (upload, start, compare). */
  primary: "rounded bg-indigo-600 font-medium text-white hover:bg-indigo-700 disabled:opacity-50",
  secondary: "rounded border border-slate-300 bg-white hover:bg-slate-50 disabled:opacity-50",
  /** A shortcut to what needs attention (the next failed row). */
  attention: "rounded border border-rose-300 bg-rose-50 text-rose-800 hover:bg-rose-100",
  danger: "rounded border border-red-300 bg-white text-red-900 hover:bg-red-100 disabled:opacity-50",
} as const;

const SIZES = {
  xs: "px-2 py-0.5",
  sm: "px-2 py-1",
  md: "px-3 py-1",
  lg: "px-3 py-1.5",
  xl: "px-4 py-1.5",
  "2xl": "px-4 py-2",
} as const;

type Look = { variant?: keyof typeof VARIANTS; size?: keyof typeof SIZES; className?: string };

/** The class string of a button: its look and size, plus layout or text size from the caller (never colours). */
export function buttonClass({ variant = "secondary", size = "md", className }: Look): string {
  return [VARIANTS[variant], SIZES[size], className].filter(Boolean).join(" ");
}

export function Button({ variant, size, className, ...props }: Look & ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button {...props} className={buttonClass({ variant, size, className })} />;
}

/** A link that looks like a button (client-side navigation). */
export function LinkButton({ variant, size, className, ...props }: Look & ComponentProps<typeof Link>) {
  return <Link {...props} className={buttonClass({ variant, size, className })} />;
}

/** A plain <a> that looks like a button: for downloads from route handlers, which client-side navigation cannot show. */
export function DownloadButton({ variant, size, className, ...props }: Look & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return <a {...props} className={buttonClass({ variant, size, className })} />;
}
