import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/components/auth/requirePageRole";
import { UploadPanel } from "@/components/datasets/UploadPanel";
import { CardFrame } from "@/components/ui/Card";
import { EmptyState } from "@/components/ui/EmptyState";
import { formatDateTime, formatInteger } from "@/lib/charts/format";
import { creatorLabel } from "@/lib/auth/creatorLabel";
import { roleCan } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db/client";
import { userIdentitiesById } from "@/lib/db/accounts/userQueries";
import { listDatasets } from "@/lib/db/datasets/datasetQueries";
import { limitsFromEnv } from "@/lib/ingest/limits";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Datasets" };

export default async function DatasetsPage() {
  const user = await requirePageRole("data.read", "/datasets");
  const db = getDb();
  const datasets = await listDatasets(db);
  const creators = await userIdentitiesById(
    db,
    datasets.map((dataset) => dataset.createdById),
  );
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Datasets</h1>
        <p className="text-sm text-slate-500">
          Evaluation sets: requests, responses, ground truth and retrieved context, one row per question.
        </p>
      </div>
      {roleCan(user.role, "dataset.upload") && <UploadPanel maxBytes={limitsFromEnv().maxFileBytes} />}
      {datasets.length === 0 ? (
        <EmptyState
          title="No datasets yet"
          body={
            roleCan(user.role, "dataset.upload")
              ? "Upload a CSV, JSON, JSONL or Parquet evaluation set above to get started."
              : "A runner or an admin can upload an evaluation set here."
          }
        />
      ) : (
        <CardFrame as="div" padding="none" className="overflow-x-auto">
          <table className="w-full text-sm" data-testid="datasets-table">
            <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
              <tr>
                <th className="px-3 py-2">Name</th>
                <th className="px-3 py-2 text-right">Rows</th>
                <th className="px-3 py-2">Source</th>
                <th className="px-3 py-2 text-right">Runs</th>
                <th className="px-3 py-2">Uploaded</th>
                <th className="px-3 py-2">By</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {datasets.map((dataset) => (
                <tr key={dataset.id} className="hover:bg-slate-50">
                  <td className="px-3 py-2">
                    <Link href={`/datasets/${dataset.id}`} className="font-medium text-indigo-700 hover:underline">
                      {dataset.name}
                    </Link>
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{formatInteger(dataset.rowCount)}</td>
                  <td className="px-3 py-2 text-slate-600">
                    {dataset.sourceFilename ?? "—"}{" "}
                    {dataset.sourceFormat && (
                      <span className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-[11px] uppercase text-slate-500">
                        {dataset.sourceFormat}
                      </span>
                    )}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{dataset._count.runs}</td>
                  <td className="px-3 py-2 text-slate-600">{formatDateTime(dataset.createdAt)}</td>
                  <td className="px-3 py-2 text-slate-600">{creatorLabel(dataset.createdById, creators)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </CardFrame>
      )}
    </div>
  );
}
