import Link from "next/link";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-lg rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
      <h1 className="text-lg font-semibold">Not found</h1>
      <p className="mt-1 text-sm text-slate-600">This dataset, run or row does not exist. It may have been deleted, or the link is incomplete.</p>
      <div className="mt-4 flex justify-center gap-2 text-sm">
        <Link href="/datasets" className="rounded bg-indigo-600 px-3 py-1.5 text-white hover:bg-indigo-700">Datasets</Link>
        <Link href="/runs" className="rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-50">Runs</Link>
      </div>
    </div>
  );
}
