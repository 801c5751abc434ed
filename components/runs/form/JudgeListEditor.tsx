"use client";

import type { ReactNode } from "react";

/**
 * A list of judge definitions the run form edits in place: one card each, with its fields and a Remove
 * button, then an "Add" button that appends `blank`. The caller draws a card's fields (`fields`), given
 * how to change that one definition and the Remove button to place among them.
 */
export function JudgeListEditor<T>({
  items,
  onChange,
  blank,
  addLabel,
  testId,
  fields,
}: {
  items: T[];
  onChange: (items: T[]) => void;
  blank: T;
  addLabel: string;
  testId?: string;
  fields: (item: T, update: (change: Partial<T>) => void, remove: ReactNode) => ReactNode;
}) {
  return (
    <div className="space-y-3" data-testid={testId}>
      {items.map((item, index) => (
        <div key={index} className="rounded-md border border-slate-200 bg-slate-50 p-3">
          {fields(
            item,
            (change) => onChange(items.map((other, i) => (i === index ? { ...other, ...change } : other))),
            <button
              type="button"
              onClick={() => onChange(items.filter((_, i) => i !== index))}
              className="ml-auto text-xs text-red-700 hover:underline"
            >
              Remove
            </button>,
          )}
        </div>
      ))}
      <button
        type="button"
        onClick={() => onChange([...items, blank])}
        className="rounded border border-dashed border-slate-400 px-3 py-1 text-sm text-slate-700 hover:bg-slate-50"
      >
        {addLabel}
      </button>
    </div>
  );
}
