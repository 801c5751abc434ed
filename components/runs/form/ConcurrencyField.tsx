"use client";

import { useState } from "react";
import { MAX_RUN_CONCURRENCY } from "@/lib/contract/runLimits";
import { concurrencyAboveEndpointLimit } from "@/lib/llm/concurrencyNote";

/**
 * The run's "LLM calls in flight", with a note as soon as the typed value is above the endpoint's process-wide
 * limit (ASSAY_LLM_MAX_IN_FLIGHT), which would otherwise cap it in silence. `maxInFlight` is null without an endpoint.
 */
export function ConcurrencyField({
  maxInFlight,
  defaultValue = 8,
}: {
  maxInFlight: number | null;
  defaultValue?: number;
}) {
  const [value, setValue] = useState(String(defaultValue));
  const typed = Number(value);
  const note =
    maxInFlight !== null && Number.isInteger(typed) && typed > 0
      ? concurrencyAboveEndpointLimit(typed, maxInFlight, `${typed} calls in flight`)
      : null;
  return (
    <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
      LLM calls in flight
      <input
        name="concurrency"
        type="number"
        min={1}
        max={MAX_RUN_CONCURRENCY}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        aria-describedby={note ? "concurrency-note" : undefined}
        className="w-24 rounded border border-slate-300 px-2 py-1 text-sm font-normal"
      />
      {note && (
        <span
          id="concurrency-note"
          role="status"
          className="max-w-xs font-normal text-amber-800"
          data-testid="concurrency-note"
        >
          {note}
        </span>
      )}
    </label>
  );
}
