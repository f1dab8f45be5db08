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

export function SocialIcon({ network, className = "h-5 w-5" }: { network: Network; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="currentColor" aria-hidden="true" focusable="false">
      <path d={paths[network]} />
    </svg>
  );
}
