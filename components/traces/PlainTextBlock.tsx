/**
 * Uploaded text shown as it is: preformatted, wrapped, never parsed as markup (React escapes it), in a box
 * that scrolls past a fixed height. The box takes the focus so a keyboard can scroll it.
 */
export function PlainTextBlock({ label, text, testId }: { label: string; text: string; testId?: string }) {
  return (
    <div data-testid={testId}>
      <p className="text-[11px] font-medium uppercase tracking-wide text-slate-600">{label}</p>
      <pre
        tabIndex={0}
        className="mt-0.5 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-2 font-mono text-xs text-slate-800 ring-1 ring-slate-200"
      >
        {text}
      </pre>
    </div>
  );
}
