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
  hash = "",
  focusKey,
}: {
  action: string;
  q: string;
  keep: Record<string, string | number | undefined>;
  placeholder: string;
  /** Kept by the browser through the GET submit (#rows): the results open with the table in view. */
  hash?: string;
  /** Marks the field and its button so the focus comes back to the one used (useKeepFocus). */
  focusKey?: string;
}) {
  return (
    <form action={action + hash} method="get" role="search" className="flex items-center gap-2">
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
        data-focus-key={focusKey}
        className="w-72 rounded border border-slate-300 px-2 py-1 text-sm"
      />
      <Button type="submit" className="text-sm" data-focus-key={focusKey && `${focusKey}-submit`}>
        Search
      </Button>
    </form>
  );
}
