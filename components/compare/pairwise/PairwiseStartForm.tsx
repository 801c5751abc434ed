"use client";

import { useActionState, useState } from "react";
import { startPairwise, type StartPairwiseState } from "@/app/actions/startPairwise";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";

/**
 * Starts a pairwise judgment of the candidate against the baseline: the built-in criterion, optionally one
 * custom criterion, both orders (default) or one. The call count updates as the choices change, before anything
 * is spent.
 */
export function PairwiseStartForm({
  baselineRunId,
  candidateRunId,
  pairs,
  judgeLabel,
}: {
  baselineRunId: string;
  candidateRunId: string;
  pairs: number;
  judgeLabel: string;
}) {
  const [state, submit, pending] = useActionState<StartPairwiseState, FormData>(startPairwise, {
    message: null,
    started: false,
  });
  const [orders, setOrders] = useState<"both" | "one">("both");
  const [customName, setCustomName] = useState("");
  const criteria = customName.trim() ? 2 : 1;
  const calls = pairs * criteria * (orders === "both" ? 2 : 1);
  return (
    <form onSubmit={submitTo(submit)} className="space-y-3 text-sm" data-testid="pairwise-form">
      <input type="hidden" name="baselineRunId" value={baselineRunId} />
      <input type="hidden" name="candidateRunId" value={candidateRunId} />
      <fieldset className="space-y-1">
        <legend className="text-xs font-medium text-slate-600">Orders</legend>
        <label className="flex items-start gap-2">
          <input
            type="radio"
            name="orders"
            value="both"
            checked={orders === "both"}
            onChange={() => setOrders("both")}
          />
          <span>
            <strong className="font-medium">Both orders</strong> (recommended): each pair judged with A first, then B
            first. A pair wins only if it wins both ways; otherwise it is a tie marked position-dependent.
          </span>
        </label>
        <label className="flex items-start gap-2">
          <input type="radio" name="orders" value="one" checked={orders === "one"} onChange={() => setOrders("one")} />
          <span>
            <strong className="font-medium">One order</strong>, drawn at random per row: half the calls, but a
            judge&apos;s position bias is only averaged out, not caught, and its consistency cannot be measured.
          </span>
        </label>
      </fieldset>
      <details className="rounded border border-slate-200 px-3 py-2">
        <summary className="cursor-pointer text-xs font-medium text-slate-600">
          Add a custom criterion (beside the built-in &ldquo;overall&rdquo;)
        </summary>
        <div className="mt-2 grid gap-2 sm:grid-cols-[12rem_1fr]">
          <label className="block text-xs text-slate-600">
            Name
            <input
              name="customName"
              value={customName}
              onChange={(event) => setCustomName(event.target.value)}
              maxLength={40}
              placeholder="concise"
              pattern="[a-z][a-z0-9_]*"
              className="mt-1 w-full rounded border border-slate-300 px-2 py-1 text-sm"
            />
          </label>
          <label className="block text-xs text-slate-600">
            Instructions: what makes one answer better than the other
            <textarea
              name="customInstructions"
              rows={2}
              maxLength={4000}
              placeholder="Prefer the answer that is complete and shorter."
              className="mt-1 w-full rounded border border-slate-300 px-2 py-1 text-sm"
            />
          </label>
        </div>
      </details>
      <label className="block text-xs text-slate-600">
        Budget (optional): stop after at most{" "}
        <input
          type="number"
          name="budgetCalls"
          min={1}
          placeholder={String(calls)}
          className="w-28 rounded border border-slate-300 px-1 py-0.5 text-sm"
          data-testid="pairwise-budget"
        />{" "}
        LLM calls; what was judged is kept, and a raised budget judges the rest.
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" disabled={pending || pairs === 0} data-testid="start-pairwise">
          {pending
            ? "Starting…"
            : `Judge ${pairs.toLocaleString("en-US")} pairs: ${calls.toLocaleString("en-US")} calls`}
        </Button>
        <span className="text-xs text-slate-500">Judge: {judgeLabel}</span>
      </div>
      {state.message && (
        <p role="alert" className="text-xs text-rose-800">
          {state.message}
        </p>
      )}
    </form>
  );
}
