import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server";

const PRODUCTION = {
  NODE_ENV: "production",
  SESSION_SECRET: "x".repeat(40),
  DATABASE_URL: "postgres://app@db.internal:5432/app",
  S3_BUCKET: "service-images",
};

describe("parseEnv", () => {
  it("gives a working default for every variable", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SITE_URL).toBe("http://localhost:3000");
    expect(env.NODE_ENV).toBe("development");
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", S3_BUCKET: "" }).DATABASE_URL).toBeUndefined();
  });

  it("names the bad variable", () => {
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrowError(/DATABASE_URL/);
    try {
      parseEnv({ PORT: "eighty", SITE_URL: "not a url" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      expect((error as EnvError).variables.sort()).toEqual(["PORT", "SITE_URL"]);
    }
  });

  it("requires a real session secret in production", () => {
    const { SESSION_SECRET: _omitted, ...withoutSecret } = PRODUCTION;
    expect(() => parseEnv(withoutSecret)).toThrowError(/SESSION_SECRET/);
    expect(parseEnv({ ...PRODUCTION, SESSION_SECRET: "x".repeat(40) }).NODE_ENV).toBe("production");
  });

  it("refuses production on the embedded database, naming DATABASE_URL", () => {
    const { DATABASE_URL: _omitted, ...withoutDatabase } = PRODUCTION;
    expect(() => parseEnv(withoutDatabase)).toThrowError(/DATABASE_URL: is required in production/);
  });

  it("wants S3_BUCKET in production unless UPLOADS_DIR names a volume", () => {
    const { S3_BUCKET: _omitted, ...withoutBucket } = PRODUCTION;
    expect(() => parseEnv(withoutBucket)).toThrowError(/S3_BUCKET: is required in production, unless UPLOADS_DIR/);
    expect(parseEnv({ ...withoutBucket, UPLOADS_DIR: "/data/uploads" }).UPLOADS_DIR).toBe("/data/uploads");
  });

  it("refuses SEED_DEV_DATA in production", () => {
    expect(() => parseEnv({ ...PRODUCTION, SEED_DEV_DATA: "true" })).toThrowError(/SEED_DEV_DATA/);
    expect(parseEnv({ ...PRODUCTION, SEED_DEV_DATA: "false" }).SEED_DEV_DATA).toBe(false);
  });

  it("the test-only escape lets the browser tests run production embedded", () => {
    const env = parseEnv({
      NODE_ENV: "production",
      SESSION_SECRET: "x".repeat(40),
      SEED_DEV_DATA: "true",
      ALLOW_EMBEDDED_IN_PRODUCTION: "true",
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SEED_DEV_DATA).toBe(true);
  });

  it("wants paired settings together", () => {
    expect(() => parseEnv({ SANITY_PROJECT_ID: "abc123" })).toThrowError(/SANITY_DATASET/);
    expect(() => parseEnv({ S3_BUCKET: "service-images", S3_ACCESS_KEY_ID: "k" })).toThrowError(/S3_SECRET_ACCESS_KEY/);
  });

  it("reads booleans", () => {
    expect(parseEnv({ SANITY_USE_CDN: "false" }).SANITY_USE_CDN).toBe(false);
    expect(() => parseEnv({ SANITY_USE_CDN: "maybe" })).toThrowError(/SANITY_USE_CDN/);
  });

  it("takes Stripe's secret key and webhook secret together, or neither", () => {
    const both = { STRIPE_SECRET_KEY: "sk_test_0123456789abc", STRIPE_WEBHOOK_SECRET: "whsec_0123456789abc" };
    expect(parseEnv(both).STRIPE_SECRET_KEY).toBe(both.STRIPE_SECRET_KEY);
    expect(parseEnv({}).STRIPE_SECRET_KEY).toBeUndefined();
    expect(() => parseEnv({ STRIPE_SECRET_KEY: both.STRIPE_SECRET_KEY })).toThrowError(/STRIPE_WEBHOOK_SECRET/);
    expect(() => parseEnv({ STRIPE_WEBHOOK_SECRET: both.STRIPE_WEBHOOK_SECRET })).toThrowError(/STRIPE_SECRET_KEY/);
    expect(() => parseEnv({ ...both, STRIPE_SECRET_KEY: "pk_test_0123456789abc" })).toThrowError(/STRIPE_SECRET_KEY/);
  });
});
