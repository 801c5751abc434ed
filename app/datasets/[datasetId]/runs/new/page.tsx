import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageRole } from "@/components/auth/requirePageRole";
import { RunForm } from "@/components/runs/form/RunForm";
import type { MetricOption } from "@/components/runs/form/runFormTypes";
import { describeJudgeProvider } from "@/lib/config/describeJudgeProvider";
import { describeSpendingLimits, readSpendingLimits } from "@/lib/config/spendingLimits";
import { getDb } from "@/lib/db/client";
import { getDataset, getInputCoverage } from "@/lib/db/datasets/datasetQueries";
import { getDatasetTextProfiles } from "@/lib/db/datasets/datasetTextSizes";
import { messagesOnlyTemplate, ragAnswerTemplate, shortHash } from "@/lib/engine/generation/answerTemplates";
import { offlineUnavailableReason } from "@/lib/judges/heuristic";
import { DEFAULT_MAX_IN_FLIGHT, readLlmConfig } from "@/lib/llm/llmConfig";
import type { LlmPrices } from "@/lib/llm/pricing";
import { metricAvailability } from "@/lib/metrics/availability";
import { alignedJudgeOption } from "@/components/runs/form/alignedJudgeOption";
import { listAdoptedAlignments } from "@/lib/db/alignments/judgeAlignments";
import { allValues, type SearchParams } from "@/lib/urlState/searchParams";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New run" };

type Props = { params: Promise<{ datasetId: string }>; searchParams: Promise<SearchParams> };

export default async function NewRunPage({ params, searchParams }: Props) {
  const { datasetId } = await params;
  // An adopted aligned judge arrives chosen (its page's Adopt and Start links): the form's preset.
  const preset = allValues((await searchParams).aligned);
  await requirePageRole("run.start", `/datasets/${datasetId}/runs/new`);
  const db = getDb();
  const dataset = await getDataset(db, datasetId);
  if (!dataset) notFound();
  const [coverage, textProfiles, adopted] = await Promise.all([
    getInputCoverage(db, datasetId),
    getDatasetTextProfiles(db, datasetId),
    listAdoptedAlignments(db, datasetId),
  ]);
  const judge = describeJudgeProvider();
  // Rows per metric as if judged by a model; the form zeroes those the offline judge has no rule for (with why) when it is chosen.
  const toOption = (generates: boolean): MetricOption[] =>
    metricAvailability(coverage, { generatesResponses: generates }).map((a) => ({
      name: a.metric.name,
      label: a.metric.label,
      question: a.metric.question,
      kind: a.metric.kind,
      requires: a.metric.requires,
      family: a.metric.family,
      rows: a.rows,
      rowCount: a.rowCount,
      missing: a.missing.map((m) => `needs ${m.description}`),
      unavailableOffline: offlineUnavailableReason(a.metric.name),
      score: a.metric.score ?? null,
    }));

  return (
    <div className="space-y-4">
      <div>
        <p className="text-xs text-slate-500">
          <Link href="/datasets" className="hover:underline">
            Datasets
          </Link>{" "}
          /{" "}
          <Link href={`/datasets/${datasetId}`} className="hover:underline">
            {dataset.name}
          </Link>{" "}
          /
        </p>
        <h1 className="text-xl font-semibold tracking-tight">New run</h1>
        <p className="text-sm text-slate-500">
          Choose the judges and the judge model. Each metric runs on the rows that carry its inputs; the others are
          skipped with the reason.
        </p>
      </div>
      <RunForm
        datasetId={datasetId}
        rowCount={dataset.rowCount}
        metricsAsUploaded={toOption(false)}
        metricsWithGeneration={toOption(true)}
        judge={
          judge.provider === "heuristic"
            ? { configured: false }
            : { configured: true, defaultModel: judge.model, endpoint: judge.endpoint, ...endpointFigures() }
        }
        spendingLimits={spendingLimitsSentence()}
        alignedJudges={adopted.map(alignedJudgeOption)}
        presetAligned={preset.filter((id) => adopted.some((alignment) => alignment.id === id))}
        textProfiles={textProfiles}
        rowsWithRetrievedContext={coverage.inputs.retrieved_context_content}
        answerTemplates={{
          rag: { version: ragAnswerTemplate.version, shortHash: shortHash(ragAnswerTemplate.hash) },
          messagesOnly: { version: messagesOnlyTemplate.version },
        }}
      />
    </div>
  );
}

/**
 * ASSAY_LLM_PRICES and ASSAY_LLM_MAX_IN_FLIGHT alone, for the form's estimate and concurrency note: public
 * figures; the rest of the LLM config (the key) stays here.
 */
function endpointFigures(): { prices: LlmPrices; maxInFlight: number } {
  try {
    const config = readLlmConfig();
    return { prices: config?.prices ?? {}, maxInFlight: config?.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT };
  } catch {
    // A misconfigured endpoint shows as unconfigured already; the estimate then says the cost is unknown.
    return { prices: {}, maxInFlight: DEFAULT_MAX_IN_FLIGHT };
  }
}

/** The server-wide spending limits, said near the budget fields; a misconfigured one is said too (startRun refuses). */
function spendingLimitsSentence(): string | null {
  try {
    return describeSpendingLimits(readSpendingLimits());
  } catch (error) {
    return `The server's spending limits are misconfigured, so runs are refused: ${error instanceof Error ? error.message : String(error)}`;
  }
}
