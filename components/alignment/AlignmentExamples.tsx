import type { StoredAlignment } from "@/lib/db/alignments/judgeAlignments";

/**
 * What the aligned version's prompt adds: the guidance kept and the labelled training rows shown as worked
 * examples. Uploaded text is shown as text (React escapes it): it may hold HTML or Markdown, never rendered.
 */
export function AlignmentExamples({ alignment }: { alignment: StoredAlignment }) {
  return (
    <div className="space-y-2" data-testid="alignment-examples">
      <p className="text-sm">
        <span className="text-xs text-slate-500">Guidance: </span>
        {alignment.guidance ?? <span className="text-slate-500">none</span>}
      </p>
      <details>
        <summary className="cursor-pointer text-sm text-indigo-700">
          {alignment.examples.length} labelled examples in the prompt, all from the training part
        </summary>
        <ol className="mt-2 space-y-2">
          {alignment.examples.map((example) => (
            <li key={example.key} className="rounded border border-slate-200 p-2 text-xs">
              <span
                className={`mr-2 rounded px-1 font-semibold ${example.label === "yes" ? "bg-emerald-100 text-emerald-900" : "bg-rose-100 text-rose-900"}`}
              >
                {example.label}
              </span>
              <span className="whitespace-pre-wrap break-words">{example.text}</span>
              {example.reason && <span className="mt-1 block text-slate-600">Reason: {example.reason}</span>}
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
}
