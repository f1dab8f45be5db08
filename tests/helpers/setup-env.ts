// Every Vitest worker: a test environment that never touches the developer's .data folder.
process.env.NODE_ENV = "test";
process.env.LOG_LEVEL ??= "silent";
process.env.SESSION_SECRET ??= "test-session-secret-that-is-long-enough-123";
process.env.SEED_DEV_DATA = "false";
// Tests give each case its own client with X-Forwarded-For, as one trusted proxy would.
process.env.TRUST_PROXY = "1";
