import { useEffect, useState, type ComponentType } from "react";
import { PREVIEW_DISABLE_PATH } from "~/content/preview";

/**
 * Shown only in preview: a bar that says drafts are on screen, with a way out, and Sanity's
 * visual-editing overlays (click a text, land on its field in the Studio). The overlay code is
 * loaded after hydration and only here, so visitors never download it.
 */
export function PreviewOverlays() {
  const [VisualEditing, setVisualEditing] = useState<ComponentType | null>(null);
  useEffect(() => {
    let active = true;
    import("@sanity/visual-editing/remix").then((module) => {
      if (active) setVisualEditing(() => module.VisualEditing);
    });
    return () => {
      active = false;
    };
  }, []);
  return (
    <>
      <div
        role="status"
        className="sticky bottom-0 z-40 flex flex-wrap items-center justify-center gap-3 bg-amber-200 px-4 py-2 text-center font-semibold text-slate-900"
      >
        <span>Preview: you are seeing unpublished drafts.</span>
        <a href={PREVIEW_DISABLE_PATH} className="underline underline-offset-4">
          Exit preview
        </a>
      </div>
      {VisualEditing ? <VisualEditing /> : null}
    </>
  );
}
