/** The served communities as a list of pills, optionally with the ZIP codes behind a toggle. */
export function ServiceAreaList({ areas, zipCodes }: { areas: string[]; zipCodes?: string[] }) {
  return (
    <div>
      <ul className="flex flex-wrap gap-2" aria-label="Service areas">
        {areas.map((area) => (
          <li key={area} className="area-pill">
            {area}
          </li>
        ))}
      </ul>
      {zipCodes && zipCodes.length > 0 ? (
        <details className="mt-4">
          <summary className="cursor-pointer font-medium text-brand-800 underline underline-offset-4 dark:text-brand-200">
            ZIP codes we serve
          </summary>
          <p className="mt-2 max-w-3xl ink-muted">{zipCodes.join(", ")}</p>
        </details>
      ) : null}
    </div>
  );
}

/** Opening hours as the owner writes them in the site settings. */
export function BusinessHours({ hours }: { hours: { display: string } }) {
  return <p className="text-lg font-medium ink">{hours.display}</p>;
}
