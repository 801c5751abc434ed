import type { ComponentPropsWithoutRef, ElementType, ReactNode } from "react";
import { breakAtSeparators } from "./MetricName";

const FRAME = "rounded-lg border border-slate-200 bg-white shadow-sm";
const PADDING = { none: "", sm: "p-3", md: "p-4", lg: "p-6" } as const;

type FrameTag = "section" | "div" | "form" | "details";
type FrameProps<T extends FrameTag> = { as?: T; padding?: keyof typeof PADDING; className?: string } & Omit<
  ComponentPropsWithoutRef<T>,
  "className"
>;

/** The white bordered box every panel of the app sits in; `className` adds layout, never another border or padding. */
export function CardFrame<T extends FrameTag = "section">({ as, padding = "md", className, ...props }: FrameProps<T>) {
  // One tag at a time: the props were checked against it above.
  const Tag = (as ?? "section") as ElementType;
  return (
    <Tag
      {...(props as Record<string, unknown>)}
      className={[className, FRAME, PADDING[padding]].filter(Boolean).join(" ")}
    />
  );
}

/** A titled panel. `titleId` names the panel for assistive technology (aria-labelledby). */
export function Card({
  title,
  titleId,
  subtitle,
  children,
  testId,
}: {
  title: string;
  titleId?: string;
  subtitle?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <CardFrame data-testid={testId} aria-labelledby={titleId}>
      <h2 id={titleId} className="text-sm font-semibold">
        {breakAtSeparators(title)}
      </h2>
      {subtitle && <p className="text-xs text-slate-500">{subtitle}</p>}
      <div className="mt-3">{children}</div>
    </CardFrame>
  );
}
