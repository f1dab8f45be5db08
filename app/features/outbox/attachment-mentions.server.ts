import type { OutboxAttachment } from "../../../db/schema";

/**
 * An e-mail's bodies without what they say about the attachments that could not be attached
 * (the photo was deleted after the e-mail was queued, or is not a picture sharp can read): the
 * text's sentence goes with its line, the HTML's fragment as it was written, and a blank line
 * left twice over becomes one. Bodies without the mention are returned as they are.
 */
export function withoutMentions(
  body: { text: string; html: string | null },
  missing: readonly OutboxAttachment[],
): { text: string; html: string | null } {
  let { text, html } = body;
  for (const { mention } of missing) {
    if (!mention) continue;
    const lines = text.split("\n");
    const kept = lines.filter((line) => line !== mention.text);
    if (kept.length < lines.length) text = kept.join("\n").replace(/\n{3,}/g, "\n\n");
    if (html !== null) html = html.split(`${mention.html}\n`).join("").split(mention.html).join("");
  }
  return { text, html };
}
