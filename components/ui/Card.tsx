import type { ReactNode } from "react";

export function Card({ title, subtitle, children, testId }: { title: string; subtitle?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <h2 className="text-sm font-semibold">{title}</h2>
      {subtitle && <p className="text-xs text-slate-500">{subtitle}</p>}
      <div className="mt-3">{children}</div>
    </section>
  );
}
