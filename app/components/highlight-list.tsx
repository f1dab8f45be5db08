import { SpriteIcon } from "./social-icon";
import type { Highlight } from "~/content/types";

function CheckIcon() {
  return <SpriteIcon id="check" className="check-icon" />;
}

/** Promises, trust badges and reasons to choose us: a titled statement with a check mark. */
export function HighlightList({ items, columns = 2 }: { items: Highlight[]; columns?: 2 | 3 | 4 }) {
  const grid = { 2: "sm:grid-cols-2", 3: "sm:grid-cols-2 lg:grid-cols-3", 4: "sm:grid-cols-2 lg:grid-cols-4" }[columns];
  return (
    <ul className={`grid gap-4 ${grid}`}>
      {items.map((item) => (
        <li key={item._key} className="highlight-card">
          <CheckIcon />
          <div>
            <p className="font-semibold ink">{item.title}</p>
            {item.text ? <p className="mt-1 ink-muted">{item.text}</p> : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
