import type { Highlight } from "~/content/types";

function CheckIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-6 w-6 flex-none text-brand-700 dark:text-brand-300" aria-hidden="true">
      <circle cx="12" cy="12" r="11" fill="currentColor" opacity="0.15" />
      <path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

/** Promises, trust badges and reasons to choose us: a titled statement with a check mark. */
export function HighlightList({ items, columns = 2 }: { items: Highlight[]; columns?: 2 | 3 | 4 }) {
  const grid = { 2: "sm:grid-cols-2", 3: "sm:grid-cols-2 lg:grid-cols-3", 4: "sm:grid-cols-2 lg:grid-cols-4" }[columns];
  return (
    <ul className={`grid gap-4 ${grid}`}>
      {items.map((item) => (
        <li
          key={item._key}
          className="flex gap-3 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900 hc:border-black"
        >
          <CheckIcon />
          <div>
            <p className="font-semibold text-slate-900 dark:text-white">{item.title}</p>
            {item.text ? <p className="mt-1 text-slate-700 dark:text-slate-300">{item.text}</p> : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
