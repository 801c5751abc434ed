import { Button } from "@/components/ui/Button";

/**
 * A plain GET form: the search lands in the URL and works without JavaScript. Other params ride along as hidden
 * fields. The field is keyed by the search it shows, so a client-side navigation that changes it shows the new one.
 */
export function SearchBox({
  action,
  q,
  keep,
  placeholder,
}: {
  action: string;
  q: string;
  keep: Record<string, string | number | undefined>;
  placeholder: string;
}) {
  return (
    <form action={action} method="get" role="search" className="flex items-center gap-2">
      {Object.entries(keep).map(([key, value]) =>
        value === undefined || value === "" ? null : <input key={key} type="hidden" name={key} value={String(value)} />,
      )}
      <input
        key={q}
        type="search"
        name="q"
        defaultValue={q}
        placeholder={placeholder}
        aria-label={placeholder}
        className="w-72 rounded border border-slate-300 px-2 py-1 text-sm"
      />
      <Button type="submit" className="text-sm">
        Search
      </Button>
    </form>
  );
}
