import Link from "next/link";
import { Card } from "@/components/ui/Card";
import { formatInteger } from "@/lib/charts/format";
import type { WorkerStatus } from "@/lib/db/work/workers";
import { slotTimeoutFor } from "@/lib/engine/worker/workerSettings";

const KIND_LABEL: Record<WorkerStatus["kind"], string> = {
  web: "web server",
  // ASSAY_WEB_WORKER=0: it judges no run, but the Align page's calls are made there.
  "web-align": "web server (align calls only)",
  worker: "worker",
  cli: "CLI run",
};

/** A live worker heartbeats every second: one silent for longer than this has missed two beats. */
const SILENT_MS = 2_500;

/** A worker that is silent (killed, or stalled) and still holds in-flight slots, which the others wait for. */
function holdsSlotsWhileSilent(worker: WorkerStatus): boolean {
  return !worker.stopped && worker.slotsHeld > 0 && worker.heartbeatAgeMs >= SILENT_MS;
}

/** "4 s ago", "3 min ago": how long since a worker last said it was alive. */
function heartbeatAge(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 90) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  return minutes < 90 ? `${minutes} min ago` : `${Math.round(minutes / 60)} h ago`;
}

function StateBadge({ worker }: { worker: WorkerStatus }) {
  const [text, tone] = worker.stopped
    ? ["stopped", "bg-slate-100 text-slate-600"]
    : worker.gone
      ? ["gone", "bg-rose-50 text-rose-700 ring-1 ring-rose-200"]
      : ["live", "bg-emerald-50 text-emerald-700 ring-1 ring-emerald-200"];
  return <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${tone}`}>{text}</span>;
}

/**
 * The processes that judge: web servers, `npm run worker` processes and CLI
 * runs, live and recently gone. A worker silent for longer than the worker
 * timeout is marked gone; what it held is back in the pool.
 */
export function WorkersPanel({ workers, timeoutMs }: { workers: WorkerStatus[]; timeoutMs: number }) {
  const live = workers.filter((worker) => !worker.gone);
  const silentHolders = workers.filter(holdsSlotsWhileSilent);
  return (
    <Card
      title="Workers"
      titleId="workers-title"
      testId="workers-panel"
      subtitle={
        workers.length === 0
          ? "No process has judged in the last hour. The web server judges when a run starts; `npm run worker` adds more."
          : `${live.length} live of ${workers.length} seen in the last hour. A worker silent for ${Math.round(slotTimeoutFor(timeoutMs) / 1000)} s loses its in-flight slots; one silent for ${Math.round(timeoutMs / 1000)} s is gone, and its claimed work returns to the pool.`
      }
    >
      {silentHolders.map((worker) => (
        <p key={worker.id} className="mb-3 text-sm text-amber-800" data-testid="silent-slots-note">
          {formatInteger(worker.slotsHeld)} of the endpoint&apos;s in-flight slots held by a worker not seen for{" "}
          {Math.round(worker.heartbeatAgeMs / 1000)} s ({worker.host} pid {worker.pid}): every worker&apos;s calls wait
          for them until it has been silent {Math.round(slotTimeoutFor(timeoutMs) / 1000)} s.
        </p>
      ))}
      {workers.length > 0 && (
        <div className="-mx-4 -mb-4 overflow-x-auto">
          <table className="w-full text-sm">
            <thead className="border-y border-slate-200 bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
              <tr>
                <th className="px-3 py-2">Worker</th>
                <th className="px-3 py-2">State</th>
                <th className="px-3 py-2">Judging</th>
                <th className="px-3 py-2 text-right">Calls in flight</th>
                <th className="px-3 py-2 text-right">Results written</th>
                <th className="px-3 py-2">Last heartbeat</th>
                <th className="px-3 py-2">Version</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {workers.map((worker) => (
                <tr key={worker.id} className={worker.gone ? "text-slate-500" : undefined} data-testid="worker-row">
                  <td className="px-3 py-2">
                    <div className="font-medium text-slate-800">
                      {worker.host} <span className="font-normal text-slate-500">pid {worker.pid}</span>
                    </div>
                    <div className="text-xs text-slate-500">{KIND_LABEL[worker.kind]}</div>
                  </td>
                  <td className="px-3 py-2">
                    <StateBadge worker={worker} />
                  </td>
                  <td className="px-3 py-2">
                    {worker.runId ? (
                      <>
                        {worker.gone && <span className="text-slate-500">was on </span>}
                        <Link href={`/runs/${worker.runId}`} className="text-indigo-700 hover:underline">
                          {worker.runName ?? worker.runId}
                        </Link>
                      </>
                    ) : (
                      <span className="text-slate-500">idle</span>
                    )}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">
                    {/* A gone worker's calls ended with it; what it last said is no longer in flight. */}
                    {worker.gone ? "—" : formatInteger(worker.inFlight)}
                    {holdsSlotsWhileSilent(worker) && (
                      <div className="text-xs text-amber-800">holds {formatInteger(worker.slotsHeld)} slots</div>
                    )}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{formatInteger(worker.completed)}</td>
                  <td className="px-3 py-2 tabular-nums text-slate-600">{heartbeatAge(worker.heartbeatAgeMs)}</td>
                  <td className="px-3 py-2 text-slate-600">{worker.version}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
