import type { ShellContent } from "~/content/shell.server";

type Network = ShellContent["social"][number]["network"];

// Simple brand glyphs (24px viewBox), decorative: the link carries the accessible name.
const paths: Record<Network, string> = {
  facebook:
    "M13.5 21v-7.5h2.5l.4-3h-2.9V8.6c0-.9.3-1.5 1.5-1.5h1.5V4.4c-.3 0-1.2-.1-2.2-.1-2.2 0-3.7 1.3-3.7 3.8v2.4H8v3h2.6V21h2.9z",
  instagram:
    "M12 7.3A4.7 4.7 0 1 0 12 16.7 4.7 4.7 0 0 0 12 7.3zm0 7.7a3 3 0 1 1 0-6 3 3 0 0 1 0 6zm6-7.9a1.1 1.1 0 1 1-2.2 0 1.1 1.1 0 0 1 2.2 0zM21 7c-.1-1.6-.4-3-1.6-4.1S16.7 1.5 15.1 1.4C13.4 1.3 10.6 1.3 8.9 1.4 7.3 1.5 5.9 1.8 4.8 2.9S3.3 5.5 3.2 7.1c-.1 1.7-.1 4.5 0 6.2.1 1.6.4 3 1.6 4.1s2.5 1.5 4.1 1.6c1.7.1 4.5.1 6.2 0 1.6-.1 3-.4 4.1-1.6s1.5-2.5 1.6-4.1c.2-1.7.2-4.5.2-6.3zm-2.1 8.2a3.2 3.2 0 0 1-1.8 1.8c-1.3.5-4.2.4-5.1.4s-3.9.1-5.1-.4a3.2 3.2 0 0 1-1.8-1.8c-.5-1.3-.4-4.2-.4-5.1s-.1-3.9.4-5.1A3.2 3.2 0 0 1 7 3.2c1.3-.5 4.2-.4 5.1-.4s3.9-.1 5.1.4a3.2 3.2 0 0 1 1.8 1.8c.5 1.3.4 4.2.4 5.1s.1 3.9-.5 5.1z",
  tiktok:
    "M16.6 5.8A4.3 4.3 0 0 1 15.5 3h-3.1v12.4a2.6 2.6 0 1 1-2.6-2.6c.3 0 .5 0 .8.1V9.7a5.8 5.8 0 1 0 5 5.7V9.1a7.4 7.4 0 0 0 4.3 1.4V7.4a4.3 4.3 0 0 1-3.3-1.6z",
  youtube:
    "M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4a2.5 2.5 0 0 0-1.8 1.8C2 8.8 2 12 2 12s0 3.2.4 4.8a2.5 2.5 0 0 0 1.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8c.4-1.6.4-4.8.4-4.8s0-3.2-.4-4.8zM10 15V9l5.2 3L10 15z",
};

/**
 * The page's icons, drawn once (decision 067): each use is a small `<use href="#icon-…">`, where
 * inline paths repeated in the header, the small-screen menu and the footer cost ~5 KB of HTML.
 * Rendered once by the root layout; an invisible, zero-size SVG (not display:none, which some
 * browsers apply to the referenced symbols too).
 */
export function IconSprite() {
  return (
    <svg aria-hidden="true" focusable="false" className="absolute h-0 w-0 overflow-hidden">
      {(Object.keys(paths) as Network[]).map((network) => (
        <symbol key={network} id={`icon-${network}`} viewBox="0 0 24 24">
          <path d={paths[network]} fill="currentColor" />
        </symbol>
      ))}
      <symbol id="icon-check" viewBox="0 0 24 24">
        <circle cx="12" cy="12" r="11" fill="currentColor" opacity="0.15" />
        <path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
      </symbol>
      <symbol
        id="icon-a11y"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <circle cx="12" cy="4.5" r="1.75" fill="currentColor" stroke="none" />
        <path d="M5 8.5l7 1.5 7-1.5M12 10v4.5M12 14.5l-3.5 6M12 14.5l3.5 6" />
      </symbol>
    </svg>
  );
}

/**
 * One icon of the sprite above; decorative (the control around it carries the name). Without a
 * className it is sized by its control's component class (`.social-link > svg`, …: decision 074).
 */
export function SpriteIcon({ id, className }: { id: string; className?: string }) {
  return (
    <svg className={className} aria-hidden="true">
      <use href={`#icon-${id}`} />
    </svg>
  );
}

export function SocialIcon({ network, className }: { network: Network; className?: string }) {
  return <SpriteIcon id={network} className={className} />;
}
