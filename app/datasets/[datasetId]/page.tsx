import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { requirePageRole } from "@/components/auth/requirePageRole";
import { DatasetRowsTable } from "@/components/datasets/DatasetRowsTable";
import { DatasetSettings } from "@/components/datasets/DatasetSettings";
import { InputCoverageCard } from "@/components/datasets/InputCoverageCard";
import { MetricAvailabilityCard } from "@/components/datasets/MetricAvailabilityCard";
import { JudgeLabel } from "@/components/runs/JudgeLabel";
import { RunStatusBadge } from "@/components/runs/RunStatusBadge";
import { CardSkeleton } from "@/components/ui/Skeleton";
import { formatCountOf, formatDateTime, formatPercent } from "@/lib/charts/format";
import { LinkButton } from "@/components/ui/Button";
import { CardFrame } from "@/components/ui/Card";
import { creatorLabel } from "@/lib/auth/creatorLabel";
import { roleCan } from "@/lib/auth/permissions";
import { currentUser } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { countDatasetRuns, getDataset, getInputCoverage, listDatasetRows } from "@/lib/db/datasets/datasetQueries";
import { listRuns } from "@/lib/db/runs/runQueries";
import { userIdentitiesById } from "@/lib/db/accounts/userQueries";
import { metricAvailability } from "@/lib/metrics/availability";
import { compareHref } from "@/lib/urlState/compareQuery";
import { parseDatasetRowQuery, type DatasetRowQuery } from "@/lib/urlState/datasetRowQuery";
import type { SearchParams } from "@/lib/urlState/searchParams";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ datasetId: string }>; searchParams: Promise<SearchParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  // A signed-out visitor (sent on to the sign-in page) learns no dataset's name from the title.
  if (!(await currentUser())) return { title: "Dataset" };
  const dataset = await getDataset(getDb(), (await params).datasetId);
  return { title: dataset?.name ?? "Dataset not found" };
}

export default async function DatasetPage({ params, searchParams }: Props) {
  const { datasetId } = await params;
  const user = await requirePageRole("data.read", `/datasets/${datasetId}`);
  const dataset = await getDataset(getDb(), datasetId);
  if (!dataset) notFound();
  const creator = creatorLabel(dataset.createdById, await userIdentitiesById(getDb(), [dataset.createdById]));
  const query = parseDatasetRowQuery(await searchParams);

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <p className="text-xs text-slate-500">
            <Link href="/datasets" className="hover:underline">
              Datasets
            </Link>{" "}
            /
          </p>
          <h1 className="text-xl font-semibold tracking-tight">{dataset.name}</h1>
          <p className="mt-0.5 text-sm text-slate-500">
            <span className="font-medium text-slate-800" data-testid="row-count">
              {formatCountOf(dataset.rowCount, "row")}
            </span>
            {dataset.sourceFilename && <> · from {dataset.sourceFilename}</>} · uploaded{" "}
            {formatDateTime(dataset.createdAt)} by <span data-testid="created-by">{creator}</span>
          </p>
        </div>
        {roleCan(user.role, "run.start") && (
          <LinkButton href={`/datasets/${dataset.id}/runs/new`} variant="primary" size="xl" className="text-sm">
            New run
          </LinkButton>
        )}
      </div>

      {dataset.warnings.length > 0 && (
        <ul className="space-y-1 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {dataset.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}

      <Suspense
        fallback={
          <div className="grid gap-4 lg:grid-cols-[2fr_3fr]">
            <CardSkeleton />
            <CardSkeleton />
          </div>
        }
      >
        <CoverageSection datasetId={dataset.id} />
      </Suspense>

      <Suspense fallback={<CardSkeleton />}>
        <DatasetRunsSection datasetId={dataset.id} />
      </Suspense>

      <Suspense fallback={null}>
        {(roleCan(user.role, "dataset.rename") || roleCan(user.role, "dataset.delete")) && (
          <SettingsSection
            datasetId={dataset.id}
            name={dataset.name}
            rowCount={dataset.rowCount}
            canRename={roleCan(user.role, "dataset.rename")}
            canDelete={roleCan(user.role, "dataset.delete")}
          />
        )}
      </Suspense>

      <Suspense key={JSON.stringify(query)} fallback={<CardSkeleton tall />}>
        <RowsSection datasetId={dataset.id} query={query} />
      </Suspense>
    </div>
  );
}

/** Rename or delete; the delete confirmation names how many runs go with the dataset. */
async function SettingsSection({
  datasetId,
  name,
  rowCount,
  canRename,
  canDelete,
}: {
  datasetId: string;
  name: string;
  rowCount: number;
  canRename: boolean;
  canDelete: boolean;
}) {
  const runs = await countDatasetRuns(getDb(), datasetId);
  return (
    <DatasetSettings
      datasetId={datasetId}
      name={name}
      rowCount={rowCount}
      runCount={runs.total}
      runsInProgress={runs.inProgress}
      canRename={canRename}
      canDelete={canDelete}
    />
  );
}

async function CoverageSection({ datasetId }: { datasetId: string }) {
  const coverage = await getInputCoverage(getDb(), datasetId);
  return (
    <div className="grid gap-4 lg:grid-cols-[2fr_3fr]">
      <InputCoverageCard columns={coverage.columns} rowCount={coverage.rowCount} />
      <MetricAvailabilityCard availability={metricAvailability(coverage)} />
    </div>
  );
}

/** The runs on this dataset, newest first, with a link to compare the latest two. */
async function DatasetRunsSection({ datasetId }: { datasetId: string }) {
  const runs = await listRuns(getDb(), 20, datasetId);
  if (runs.length === 0) return null;
  return (
    <CardFrame aria-labelledby="runs-heading">
      <div className="flex items-center justify-between">
        <h2 id="runs-heading" className="text-sm font-semibold">
          Runs on this dataset
        </h2>
        {runs.length >= 2 && (
          <Link
            href={compareHref([runs[1].id, runs[0].id], { baseline: runs[1].id })}
            className="text-sm text-indigo-700 hover:underline"
          >
            Compare the latest two
          </Link>
        )}
      </div>
      <ul className="mt-2 divide-y divide-slate-100 text-sm">
        {runs.map((run) => (
          <li key={run.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5">
            <Link href={`/runs/${run.id}`} className="font-medium text-indigo-700 hover:underline">
              {run.name}
            </Link>
            <RunStatusBadge status={run.status} />
            <JudgeLabel provider={run.judgeProvider} model={run.judgeModel} />
            <span className="text-xs text-slate-500">{formatDateTime(run.createdAt)}</span>
            <span className="ml-auto flex flex-wrap gap-x-3 text-xs tabular-nums">
              {run.headlines.slice(0, 4).map((h) => (
                <span key={h.metric}>
                  {h.metric.split("/").pop()} <b>{formatPercent(h.rate, 0)}</b>
                </span>
              ))}
              {run.headlines.length > 4 && <span className="text-slate-500">+{run.headlines.length - 4} more</span>}
            </span>
          </li>
        ))}
      </ul>
    </CardFrame>
  );
}

async function RowsSection({ datasetId, query }: { datasetId: string; query: DatasetRowQuery }) {
  const page = await listDatasetRows(getDb(), datasetId, query);
  return <DatasetRowsTable datasetId={datasetId} page={page} query={query} />;
}
