import { refusalResponse } from "@/lib/auth/guard";
import { checkRouteRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { getRunProgress } from "@/lib/db/runs/runQueries";
import { getRunStatus } from "@/lib/db/runs/runLifecycle";

export const dynamic = "force-dynamic";

/** A run's status and item counts (GROUP BY status), polled by the progress bar. */
export async function GET(request: Request, { params }: { params: Promise<{ runId: string }> }): Promise<Response> {
  const access = await checkRouteRole("data.read", request.headers);
  if (!access.ok) return refusalResponse(access);
  const { runId } = await params;
  const db = getDb();
  const status = await getRunStatus(db, runId);
  if (!status) return Response.json({ error: "no such run" }, { status: 404 });
  const progress = await getRunProgress(db, runId);
  return Response.json({ status, ...progress }, { headers: { "cache-control": "no-store" } });
}
