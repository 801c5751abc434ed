import Link from "next/link";

/** "Runs / <run name>" above a page that belongs to a run (its labelling queue, its judge's alignment). */
export function RunBreadcrumb({ run }: { run: { id: string; name: string } }) {
  return (
    <p className="text-xs text-slate-500">
      <Link href="/runs" className="hover:underline">
        Runs
      </Link>{" "}
      /{" "}
      <Link href={`/runs/${run.id}`} className="hover:underline">
        {run.name}
      </Link>
    </p>
  );
}
