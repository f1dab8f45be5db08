import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server";

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
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrowError(/SESSION_SECRET/);
    expect(parseEnv({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(40) }).NODE_ENV).toBe("production");
  });

  it("wants paired settings together", () => {
    expect(() => parseEnv({ SANITY_PROJECT_ID: "abc123" })).toThrowError(/SANITY_DATASET/);
    expect(() => parseEnv({ S3_BUCKET: "service-images", S3_ACCESS_KEY_ID: "k" })).toThrowError(/S3_SECRET_ACCESS_KEY/);
  });

  it("reads booleans", () => {
    expect(parseEnv({ SANITY_USE_CDN: "false" }).SANITY_USE_CDN).toBe(false);
    expect(() => parseEnv({ SANITY_USE_CDN: "maybe" })).toThrowError(/SANITY_USE_CDN/);
  });
});
