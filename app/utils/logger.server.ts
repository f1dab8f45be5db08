import { getEnv } from "./env.server";

type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

// Keys whose values must never reach a log line.
const SECRET_KEYS = /pass(word)?|hash|secret|token|session|cookie|authorization|gate_?code/i;

// A Referer is the previous page's whole URL: its query may hold a token (a reset link's).
const REFERER_KEYS = /^referr?er$/i;

/**
 * A Referer as a log line may keep it: origin and path, never the query or the fragment (issue
 * 24: a reset token reached the log through a 404's Referer). Not a URL: only what comes
 * before any "?" or "#".
 */
export function refererForLog(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return `${url.origin}${url.pathname}`.slice(0, 500);
  } catch {
    return value.split(/[?#]/, 1)[0].slice(0, 500);
  }
}

function redact(fields: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (SECRET_KEYS.test(key)) out[key] = "[redacted]";
    // Every line, whoever wrote it: a referer field loses its query here too.
    else if (REFERER_KEYS.test(key) && typeof value === "string") out[key] = refererForLog(value);
    else out[key] = value;
  }
  return out;
}

/** One JSON object per line, so Fly's log search can filter by field. */
function write(level: Level, event: string, fields: Record<string, unknown> = {}) {
  let threshold: Level | "silent" = "info";
  try {
    threshold = getEnv().LOG_LEVEL;
  } catch {
    // An invalid environment is reported elsewhere; keep logging at info.
  }
  if (order[level] < order[threshold]) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...redact(fields) });
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}

export const log = {
  debug: (event: string, fields?: Record<string, unknown>) => write("debug", event, fields),
  info: (event: string, fields?: Record<string, unknown>) => write("info", event, fields),
  warn: (event: string, fields?: Record<string, unknown>) => write("warn", event, fields),
  error: (event: string, fields?: Record<string, unknown>) => write("error", event, fields),
};

export function errorFields(error: unknown) {
  if (error instanceof Error) return { error: error.message, name: error.name };
  return { error: String(error) };
}
