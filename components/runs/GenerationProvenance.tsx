import type { GenerationTemplateUse } from "@/lib/db/runs/generationQueries";
import { shortHash } from "@/lib/engine/generation/answerTemplates";
import { formatCountOf } from "@/lib/charts/format";

/** In words, what a template sent the model (any version of it). */
function describeTemplate(version: string | null): string {
  if (version?.startsWith("rag_answer/")) return "with the row's retrieved context";
  if (version?.startsWith("messages_only/")) return "from the messages alone";
  return "";
}

/** A short hash, whole on hover; "#" marks a template's own hash, a prompt hash reads like the judges' ("hash 4ec6…"). */
function Hash({ hash, label, mark = "#" }: { hash: string; label: string; mark?: string }) {
  return (
    <code className="font-mono" title={`${label}: ${hash}`}>
      {mark}
      {shortHash(hash)}
    </code>
  );
}

/** Run page: which answer templates the generating model was sent, each with its hash and row count. */
export function GenerationTemplates({ templates }: { templates: GenerationTemplateUse[] }) {
  return (
    <p className="mt-1 text-xs text-slate-600" data-testid="generation-templates">
      <span className="text-slate-500">Generation prompt:</span>{" "}
      {templates.length === 0 && <span className="text-slate-400">not sent yet</span>}
      {templates.map((use, i) => (
        <span key={`${use.templateVersion}-${use.templateHash}`}>
          {i > 0 && " · "}
          <code className="font-mono text-violet-800">{use.templateVersion}</code>{" "}
          <Hash hash={use.templateHash} label="template hash" /> {describeTemplate(use.templateVersion)},{" "}
          {formatCountOf(use.generations, "row")}
        </span>
      ))}
    </p>
  );
}

/** Row drill-down: the template and the hash of the exact prompt that produced this generated response. */
export function GenerationPrompt({
  generation,
}: {
  generation: {
    status: string;
    templateVersion: string | null;
    templateHash: string | null;
    promptHash: string | null;
  };
}) {
  if (generation.status === "pending" || !generation.templateVersion)
    return <p className="mt-2 text-[11px] text-slate-400">Not generated yet.</p>;
  return (
    <p className="mt-2 text-[11px] text-slate-500" data-testid="generation-prompt">
      {generation.status === "error" ? "Prompt sent" : "Generated"} {describeTemplate(generation.templateVersion)} ·
      template <code className="font-mono">{generation.templateVersion}</code>
      {generation.templateHash && (
        <>
          {" "}
          <Hash hash={generation.templateHash} label="template hash" />
        </>
      )}
      {generation.promptHash && (
        <>
          {" "}
          · prompt hash{" "}
          <Hash
            hash={generation.promptHash}
            label="sha256 of the template version and the exact messages sent"
            mark=""
          />
        </>
      )}
    </p>
  );
}
