import { HEAD_SCRIPT_SOURCE } from "~/utils/a11y-preferences";

/**
 * Applies the visitor's saved accessibility settings before the first paint, so a dark or
 * large-text visitor never sees a flash of the default page. Inline (no request to wait for),
 * allowed by this response's CSP nonce; must stay in <head>, before any stylesheet paints.
 */
export function A11yHeadScript({ nonce }: { nonce: string }) {
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: HEAD_SCRIPT_SOURCE }} />;
}
