/** The served communities as a list of pills, optionally with the ZIP codes behind a toggle. */
export function ServiceAreaList({ areas, zipCodes }: { areas: string[]; zipCodes?: string[] }) {
  return (
    <div>
      <ul className="flex flex-wrap gap-2" aria-label="Service areas">
        {areas.map((area) => (
          <li
            key={area}
            className="rounded-full border border-brand-200 bg-brand-50 px-4 py-2 font-medium text-brand-900 dark:border-brand-700 dark:bg-brand-950 dark:text-brand-100 hc:border-black hc:bg-white hc:text-black"
          >
            {area}
          </li>
        ))}
      </ul>
      {zipCodes && zipCodes.length > 0 ? (
        <details className="mt-4">
          <summary className="cursor-pointer font-medium text-brand-800 underline underline-offset-4 dark:text-brand-200">
            ZIP codes we serve
          </summary>
          <p className="mt-2 max-w-3xl text-slate-700 dark:text-slate-300">{zipCodes.join(", ")}</p>
        </details>
      ) : null}
    </div>
  );
}

/** Opening hours as the owner writes them in the site settings. */
export function BusinessHours({ hours }: { hours: { display: string } }) {
  return <p className="text-lg font-medium text-slate-900 dark:text-white">{hours.display}</p>;
}
