import { getEnv } from "./env.server";

type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

// Keys whose values must never reach a log line.
const SECRET_KEYS = /pass(word)?|hash|secret|token|session|cookie|authorization|gate_?code/i;

function redact(fields: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = SECRET_KEYS.test(key) ? "[redacted]" : value;
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
