import { z } from "zod";

/** Pinned so that a change of Sanity's defaults never changes what the site shows. */
export const SANITY_API_VERSION = "2025-02-19";

// Empty strings (common in .env files and fly secrets) mean "unset".
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (v === "" ? undefined : v), schema.optional());
const withDefault = <T extends z.ZodTypeAny>(schema: T, fallback: z.input<T>) =>
  z.preprocess((v) => (v === "" || v === undefined ? fallback : v), schema);
const flag = (fallback: boolean) =>
  z.preprocess(
    (v) => (v === "" || v === undefined ? fallback : v),
    z.union([z.boolean(), z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1")]),
  );
const postgresUrl = z
  .string()
  .url()
  .refine((v) => /^postgres(ql)?:\/\//.test(v), "must start with postgres:// or postgresql://");

const DEV_SESSION_SECRET = "development-only-session-secret-change-me";

const schema = z
  .object({
    NODE_ENV: withDefault(z.enum(["development", "production", "test"]), "development"),
    PORT: withDefault(z.coerce.number().int().min(1).max(65535), 3000),
    HOST: withDefault(z.string(), "0.0.0.0"),
    SITE_URL: withDefault(z.string().url(), "http://localhost:3000"),
    SESSION_SECRET: withDefault(z.string().min(32, "must be at least 32 characters"), DEV_SESSION_SECRET),
    LOG_LEVEL: withDefault(z.enum(["debug", "info", "warn", "error", "silent"]), "info"),

    // Data: PostgreSQL when set, else PGlite persisted under DATA_DIR.
    DATABASE_URL: optional(postgresUrl),
    DATA_DIR: withDefault(z.string().min(1), ".data"),
    // Unset: development accounts are seeded in development only. true/false forces it.
    SEED_DEV_DATA: optional(z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1")),

    // Content: Sanity when both are set, else the bundled dataset.
    SANITY_PROJECT_ID: optional(z.string().regex(/^[a-z0-9-]+$/, "must be a Sanity project id")),
    SANITY_DATASET: optional(z.string().regex(/^[a-z0-9_-]+$/, "must be a Sanity dataset name")),
    SANITY_API_VERSION: withDefault(
      z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2025-01-17"),
      SANITY_API_VERSION,
    ),
    SANITY_API_HOST: optional(z.string().url()),
    SANITY_USE_CDN: flag(true),
    SANITY_WEBHOOK_SECRET: optional(z.string().min(8)),
    // Booking calendars: each webhook receiver answers 404 until its secret is set.
    CAL_COM_WEBHOOK_SECRET: optional(z.string().min(8)),
    CALENDLY_WEBHOOK_SIGNING_KEY: optional(z.string().min(8)),
    CONTENT_DATASET_PATH: optional(z.string().min(1)),
    // Live preview (Studio's Presentation tool): a Viewer token reads drafts and checks the
    // preview secret; the Studio's origin may frame the site in preview only.
    SANITY_API_READ_TOKEN: optional(z.string().min(8)),
    SANITY_STUDIO_URL: optional(z.string().url()),
    // How long content stays fresh in the process cache before a background refresh.
    CONTENT_CACHE_SECONDS: withDefault(z.coerce.number().int().min(0).max(86_400), 60),

    // Files: S3 when S3_BUCKET is set, else a local folder: UPLOADS_DIR (in production a
    // mounted volume), or DATA_DIR/uploads in development.
    S3_BUCKET: optional(z.string().min(3)),
    UPLOADS_DIR: optional(z.string().min(1)),
    // Test-only escape (the browser tests run the production build on PGlite with seeded
    // accounts): lets production run embedded PGlite, folder storage and the seed. Never on a
    // deployed machine; see docs/decisions/050-production-guard-rails.md.
    ALLOW_EMBEDDED_IN_PRODUCTION: flag(false),
    S3_ENDPOINT: optional(z.string().url()),
    S3_REGION: withDefault(z.string().min(1), "auto"),
    S3_ACCESS_KEY_ID: optional(z.string().min(1)),
    S3_SECRET_ACCESS_KEY: optional(z.string().min(1)),
    S3_FORCE_PATH_STYLE: flag(false),

    // Sign-in providers: each is active when its id and secret are both set.
    GOOGLE_CLIENT_ID: optional(z.string().min(1)),
    GOOGLE_CLIENT_SECRET: optional(z.string().min(1)),
    FACEBOOK_CLIENT_ID: optional(z.string().min(1)),
    FACEBOOK_CLIENT_SECRET: optional(z.string().min(1)),

    // The client address for limits (app/utils/client-ip.server.ts): Fly-Client-IP when running
    // on Fly (Fly sets FLY_APP_NAME), X-Forwarded-For only behind this many trusted proxies.
    FLY_APP_NAME: optional(z.string().min(1)),
    TRUST_PROXY: withDefault(z.coerce.number().int().min(0).max(10), 0),

    // E-mail: quote notifications are sent when SMTP_URL is set.
    SMTP_URL: optional(z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")),
    MAIL_FROM: optional(z.string().min(3)),
    // Sent e-mails are deleted from the outbox after this many days (docs/decisions/035).
    OUTBOX_KEEP_SENT_DAYS: withDefault(z.coerce.number().int().min(1).max(3650), 90),
    // Sends at once from one machine's outbox, and the SMTP pool's connections (decision 109):
    // 5 sends a month's 95k invoices within the hour; a provider's connection limit caps it.
    OUTBOX_CONCURRENCY: withDefault(z.coerce.number().int().min(1).max(50), 5),
    // Seconds after start before the first plan visit generator and billing run (decision 099):
    // the first requests after a start do not share the machine with them. 0: at once.
    SCHEDULED_WORK_DELAY_SECONDS: withDefault(z.coerce.number().int().min(0).max(3600), 120),

    // Text messages (docs/decisions/097): sent through Twilio when all three are set; without
    // them text rows are kept as skipped. TWILIO_FROM is the registered (10DLC) number in E.164
    // or a Messaging Service SID. The inbound webhook checks signatures with the auth token.
    TWILIO_ACCOUNT_SID: optional(z.string().regex(/^AC[0-9a-fA-F]{32}$/, "must be an Account SID (AC + 32 hex)")),
    TWILIO_AUTH_TOKEN: optional(z.string().min(16)),
    TWILIO_FROM: optional(
      z.string().regex(/^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32})$/, "must be a number in E.164 or a Messaging Service SID"),
    ),
    // Where the twilio package sends its API calls instead of https://api.twilio.com (scheme,
    // host and port; the path is kept): the tests' local stand-in. Never set in production.
    TWILIO_API_BASE_URL: optional(z.string().url()),

    // Card payments (docs/decisions/103): through Stripe when both are set; without them the admin
    // records payments by hand. The webhook's signing secret checks /resources/webhooks/stripe.
    STRIPE_SECRET_KEY: optional(
      z.string().regex(/^(sk|rk)_(test|live)_[0-9A-Za-z_]{8,}$/, "must be a Stripe secret key"),
    ),
    STRIPE_WEBHOOK_SECRET: optional(z.string().regex(/^whsec_[0-9A-Za-z_]{8,}$/, "must be a webhook signing secret")),
    // Where the stripe package sends its API calls instead of https://api.stripe.com (scheme, host
    // and port): the tests' local stand-in. Never set in production.
    STRIPE_API_BASE_URL: optional(z.string().url()),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && env.SESSION_SECRET === DEV_SESSION_SECRET && !process.env.ALLOW_DEV_SECRET) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "must be set in production" });
    }
    if (env.NODE_ENV === "production" && !env.ALLOW_EMBEDDED_IN_PRODUCTION) {
      // Production never falls back silently to what only suits a laptop.
      if (!env.DATABASE_URL) {
        ctx.addIssue({
          code: "custom",
          path: ["DATABASE_URL"],
          message: "is required in production (the embedded PGlite database is for development only)",
        });
      }
      if (!env.S3_BUCKET && !env.UPLOADS_DIR) {
        ctx.addIssue({
          code: "custom",
          path: ["S3_BUCKET"],
          message: "is required in production, unless UPLOADS_DIR names a mounted volume",
        });
      }
      if (env.SEED_DEV_DATA) {
        ctx.addIssue({
          code: "custom",
          path: ["SEED_DEV_DATA"],
          message: "must not be set in production (it creates accounts with published passwords)",
        });
      }
    }
    if (Boolean(env.SANITY_PROJECT_ID) !== Boolean(env.SANITY_DATASET)) {
      ctx.addIssue({
        code: "custom",
        path: [env.SANITY_PROJECT_ID ? "SANITY_DATASET" : "SANITY_PROJECT_ID"],
        message: "SANITY_PROJECT_ID and SANITY_DATASET go together",
      });
    }
    const twilio = [env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, env.TWILIO_FROM].filter(Boolean).length;
    if (twilio !== 0 && twilio !== 3) {
      ctx.addIssue({
        code: "custom",
        path: [
          !env.TWILIO_ACCOUNT_SID ? "TWILIO_ACCOUNT_SID" : !env.TWILIO_AUTH_TOKEN ? "TWILIO_AUTH_TOKEN" : "TWILIO_FROM",
        ],
        message: "TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM go together",
      });
    }
    if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_WEBHOOK_SECRET)) {
      ctx.addIssue({
        code: "custom",
        path: [env.STRIPE_SECRET_KEY ? "STRIPE_WEBHOOK_SECRET" : "STRIPE_SECRET_KEY"],
        message: "STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together",
      });
    }
    if (env.S3_BUCKET && Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: [env.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"],
        message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together",
      });
    }
  });

export type Env = z.infer<typeof schema>;

export class EnvError extends Error {
  constructor(
    public readonly variables: string[],
    message: string,
  ) {
    super(message);
    this.name = "EnvError";
  }
}

/** Parses an environment; throws an EnvError naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  const names = [...new Set(result.error.issues.map((i) => String(i.path[0])))];
  throw new EnvError(names, `Invalid environment variable${names.length > 1 ? "s" : ""}:\n  ${issues.join("\n  ")}`);
}

let cached: Env | undefined;

/** The validated environment of this process, parsed once. */
export function getEnv(): Env {
  // Under Vitest, tests stub variables per case (vi.stubEnv), so read them afresh each time.
  if (process.env.VITEST) return parseEnv(process.env);
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests change process.env between cases; production never calls this. */
export function resetEnvCache() {
  cached = undefined;
}

export const isProduction = () => getEnv().NODE_ENV === "production";
