import { Fragment, type ReactNode } from "react";

/**
 * Text with a line-break opportunity (<wbr>) after every "/" and "_": a long metric or judge name
 * ("response/llm_judged/cites_the_exact_page/rating/percentage") then wraps between its parts, never
 * inside a word, and its text (innerText, copy and paste) stays exactly the name.
 */
export function breakAtSeparators(text: string): ReactNode {
  const parts = text.split(/(?<=[/_])/);
  return parts.map((part, index) => (
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 && <wbr />}
    </Fragment>
  ));
}

/** An Agent Evaluation metric name in code type that wraps only between its parts, with the whole name on hover. */
export function MetricName({ name, className }: { name: string; className?: string }) {
  return (
    <code className={["font-mono break-normal", className].filter(Boolean).join(" ")} title={name}>
      {breakAtSeparators(name)}
    </code>
  );
}
