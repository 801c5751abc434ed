import { Fragment } from "react";

/**
 * An Agent Evaluation metric name ("response/llm_judged/groundedness/rating/percentage") that wraps only
 * after a "/" or "_", never inside a word, with the whole name on hover. A <wbr> after each separator
 * gives the browser its break points; break-normal keeps it from breaking anywhere else.
 */
export function MetricName({ name, className }: { name: string; className?: string }) {
  const parts = name.split(/(?<=[/_])/);
  return (
    <code className={["font-mono break-normal", className].filter(Boolean).join(" ")} title={name}>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </code>
  );
}
