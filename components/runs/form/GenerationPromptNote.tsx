import { formatInteger } from "@/lib/charts/format";

/** What the run form says a generating run sends the model: the versioned templates, and how many rows carry retrieved context. */
export type AnswerTemplatesInfo = { rag: { version: string; shortHash: string }; messagesOnly: { version: string } };

export function GenerationPromptNote({
  rowsWithContext,
  rowCount,
  templates,
}: {
  rowsWithContext: number;
  rowCount: number;
  templates: AnswerTemplatesInfo;
}) {
  const count = formatInteger;
  const rag = (
    <>
      <code className="font-mono">{templates.rag.version}</code>{" "}
      <code className="font-mono text-slate-500" title="sha256 of the template's version and text">
        #{templates.rag.shortHash}
      </code>
    </>
  );
  const messagesOnly = <code className="font-mono">{templates.messagesOnly.version}</code>;
  const retrievalJudges =
    "their retrieval judges (chunk relevance, groundedness, context sufficiency) are skipped with the reason";
  return (
    <div
      className="mt-2 space-y-1 rounded border border-violet-200 bg-violet-50 px-2 py-1.5 text-xs text-violet-900"
      data-testid="generation-prompt-note"
    >
      {rowsWithContext > 0 && (
        <span className="block">
          The model receives each row&apos;s retrieved context ({count(rowsWithContext)} of {count(rowCount)} rows have
          it) through the versioned RAG-answer template {rag}: the chunks in rank order with their doc_uri, and an
          instruction to answer from them; so groundedness and chunk relevance judge the response against what the model
          saw.
        </span>
      )}
      {rowsWithContext < rowCount &&
        (rowsWithContext === 0 ? (
          <span className="block">
            No row has retrieved context: every response is generated from the messages alone ({messagesOnly}), and{" "}
            {retrievalJudges}.
          </span>
        ) : (
          <span className="block">
            Rows without retrieved context are generated from the messages alone ({messagesOnly}), and {retrievalJudges}
            .
          </span>
        ))}
    </div>
  );
}
