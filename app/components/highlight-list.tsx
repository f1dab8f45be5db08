import { SpriteIcon } from "./social-icon";
import type { Highlight } from "~/content/types";

/**
 * Promises, trust badges and reasons to choose us: a titled statement with a check mark. The
 * icon, title and text are styled by `.highlight-card` (app/tailwind.css, decision 074).
 */
export function HighlightList({ items, columns = 2 }: { items: Highlight[]; columns?: 2 | 3 | 4 }) {
  const grid = { 2: "sm:grid-cols-2", 3: "sm:grid-cols-2 lg:grid-cols-3", 4: "sm:grid-cols-2 lg:grid-cols-4" }[columns];
  return (
    <ul className={`grid gap-4 ${grid}`}>
      {items.map((item) => (
        <li key={item._key} className="highlight-card">
          <SpriteIcon id="check" />
          <div>
            <p>{item.title}</p>
            {item.text ? <p>{item.text}</p> : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
