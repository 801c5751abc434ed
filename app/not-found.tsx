import { connection } from "next/server";
import { LinkButton } from "@/components/ui/Button";
import { CardFrame } from "@/components/ui/Card";

export default async function NotFound() {
  // Rendered per request, not prerendered: a prerendered page's scripts carry no CSP nonce and would be blocked.
  await connection();
  return (
    <CardFrame as="div" padding="lg" className="mx-auto max-w-lg text-center">
      <h1 className="text-lg font-semibold">Not found</h1>
      <p className="mt-1 text-sm text-slate-600">
        This dataset, run or row does not exist. It may have been deleted, or the link is incomplete.
      </p>
      <div className="mt-4 flex justify-center gap-2 text-sm">
        <LinkButton href="/datasets" variant="primary" size="lg">
          Datasets
        </LinkButton>
        <LinkButton href="/runs" size="lg">
          Runs
        </LinkButton>
      </div>
    </CardFrame>
  );
}
