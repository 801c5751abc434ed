import { InertMarkdown } from "@/components/content/InertMarkdown";
import { Card } from "@/components/ui/Card";

/**
 * A row's ground truth as a judge saw it: the expected response (inert Markdown) or the expected facts, and
 * the expected documents. Shared by the run's row page and the compare row page, so both read the same.
 */
export function GroundTruthCard({
  expectedResponse,
  facts,
  expectedUris,
  emptyText = "No expected response or facts.",
}: {
  expectedResponse: string | null;
  facts: string[] | null;
  expectedUris: Set<string>;
  emptyText?: string;
}) {
  return (
    <Card title="Ground truth" testId="ground-truth">
      {expectedResponse !== null && <InertMarkdown text={expectedResponse} />}
      {facts && (
        <ul className="list-disc space-y-0.5 pl-5 text-sm">
          {facts.map((fact, i) => (
            <li key={i}>{fact}</li>
          ))}
        </ul>
      )}
      {expectedResponse === null && !facts && <p className="text-sm text-slate-400">{emptyText}</p>}
      {expectedUris.size > 0 && (
        <p className="mt-2 text-xs text-slate-500">
          Expected documents:{" "}
          {[...expectedUris].map((uri) => (
            <code key={uri} className="mr-1 break-all font-mono">
              {uri}
            </code>
          ))}
        </p>
      )}
    </Card>
  );
}
