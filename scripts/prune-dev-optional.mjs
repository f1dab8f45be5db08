// Run by the Dockerfile after `npm ci --omit=dev`: removes the packages npm marks "devOptional",
// dev dependencies that a production package also names as an optional peer (TypeScript, an
// optional peer of @remix-run/node; React's types, of sonner). npm keeps them, since the peer
// could be wanted; nothing in the server imports them at run time. Prints what it removed.
import { readFileSync, rmSync } from "node:fs";

const lock = JSON.parse(readFileSync("node_modules/.package-lock.json", "utf8"));
const removed = Object.entries(lock.packages)
  .filter(([location, entry]) => location.startsWith("node_modules/") && entry.devOptional)
  .map(([location]) => location);
for (const location of removed) rmSync(location, { recursive: true, force: true });
console.log(`Removed ${removed.length} dev-only optional peer(s): ${removed.join(", ") || "none"}`);
