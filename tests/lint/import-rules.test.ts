import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

// The import rules only protect the layout if they can fail. Each case builds a tiny tree in a
// temporary folder, with the same folder names as the app, and runs dependency-cruiser on it
// with the project's own rules file.
const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, "../..");
const depcruise = path.join(repo, "node_modules/.bin/depcruise");
const rules = path.join(repo, ".dependency-cruiser.cjs");

let folder: string | undefined;
afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

async function cruise(files: Record<string, string>) {
  folder = await mkdtemp(path.join(os.tmpdir(), "import-rules-"));
  const all = {
    "tsconfig.json": JSON.stringify({
      compilerOptions: { baseUrl: ".", paths: { "~/*": ["./app/*"] }, jsx: "react-jsx" },
    }),
    "db/schema.ts": "export type Row = { id: string };\nexport const TABLES = ['users'];\n",
    "app/features/quotes/quote-constants.ts": "export const QUOTE_STATUSES = ['new'] as const;\n",
    "app/features/quotes/quotes.server.ts": "export const submit = () => 1;\n",
    "app/models/user.server.ts": "export const findUser = () => null;\n",
    ...files,
  };
  for (const [name, text] of Object.entries(all)) {
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await writeFile(path.join(folder, name), text);
  }
  try {
    const { stdout } = await run(depcruise, ["app", "db", "--config", rules, "--output-type", "err"], { cwd: folder });
    return { ok: true, output: stdout };
  } catch (error) {
    const failure = error as { stdout?: string; code?: number };
    return { ok: false, output: failure.stdout ?? "", code: failure.code };
  }
}

describe("the import rules", () => {
  it("refuse a component that imports db/schema.ts", async () => {
    const result = await cruise({
      "app/components/bad.tsx": "import { TABLES } from '../../db/schema';\nexport const Bad = () => TABLES.length;\n",
    });
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/components-are-presentation: app\/components\/bad\.tsx → db\/schema\.ts/);
  });

  it("accept a component that reads a client-safe feature constant", async () => {
    const result = await cruise({
      "app/components/good.tsx":
        "import { QUOTE_STATUSES } from '~/features/quotes/quote-constants';\nexport const Good = () => QUOTE_STATUSES.length;\n",
    });
    expect(result.output).not.toMatch(/error/);
    expect(result.ok).toBe(true);
  });

  it("refuse a component that runs server-only code, but let it borrow a server module's types", async () => {
    const bad = await cruise({
      "app/components/bad.tsx":
        "import { submit } from '~/features/quotes/quotes.server';\nexport const Bad = () => submit();\n",
    });
    expect(bad.ok).toBe(false);
    expect(bad.output).toMatch(/components-without-server-code/);

    const typeOnly = await cruise({
      "app/components/typed.tsx":
        "import type { submit } from '~/features/quotes/quotes.server';\nexport type Submit = typeof submit;\n",
    });
    expect(typeOnly.ok).toBe(true);
  });

  it("refuse a model that calls a feature, and infrastructure that reads a model", async () => {
    const result = await cruise({
      "app/models/quote.server.ts":
        "import { submit } from '~/features/quotes/quotes.server';\nexport const q = submit;\n",
      "app/utils/helper.server.ts": "import { findUser } from '~/models/user.server';\nexport const h = findUser;\n",
    });
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/models-are-table-access: app\/models\/quote\.server\.ts/);
    expect(result.output).toMatch(/utils-are-infrastructure: app\/utils\/helper\.server\.ts/);
  });

  it("refuse browser code that imports db/, and db/ code that imports the app", async () => {
    const result = await cruise({
      "app/features/quotes/quote-format.ts": "import { TABLES } from '../../../db/schema';\nexport const f = TABLES;\n",
      "db/seed.ts": "import { submit } from '../app/features/quotes/quotes.server';\nexport const s = submit;\n",
    });
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/browser-code-without-db: app\/features\/quotes\/quote-format\.ts/);
    expect(result.output).toMatch(/db-stands-alone: db\/seed\.ts/);
  });

  it("keep db/ the floor: no app/ import, not even a type, and enums.ts imports nothing", async () => {
    const result = await cruise({
      "db/schema.ts":
        "import type { Quote } from '../app/features/quotes/quote-constants';\nexport type Row = Quote;\n",
      "app/features/quotes/quote-constants.ts": "export type Quote = { id: string };\n",
      "db/enums.ts":
        "import { Row } from './schema';\nexport const ROLES = ['admin'] as const;\nexport type R = Row;\n",
    });
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/db-stands-alone: db\/schema\.ts → app\/features\/quotes\/quote-constants\.ts/);
    expect(result.output).toMatch(/enums-import-nothing: db\/enums\.ts → db\/schema\.ts/);
  });

  it("let browser code read db/enums.ts, and no other part of db/", async () => {
    const result = await cruise({
      "db/enums.ts": "export const QUOTE_STATUSES = ['new'] as const;\n",
      "app/features/quotes/quote-constants.ts": "export { QUOTE_STATUSES } from '../../../db/enums';\n",
      "app/components/good.tsx":
        "import { QUOTE_STATUSES } from '~/features/quotes/quote-constants';\nexport const Good = () => QUOTE_STATUSES.length;\n",
    });
    expect(result.output).not.toMatch(/error/);
    expect(result.ok).toBe(true);
  });

  it("refuse infrastructure that reads content, and a static import of the seed", async () => {
    const result = await cruise({
      "app/content/preview.server.ts": "export const isPreview = () => false;\n",
      "app/utils/cache.ts": "import { isPreview } from '~/content/preview.server';\nexport const c = isPreview;\n",
      "db/seed-data.ts": "export const seed = () => true;\n",
      "app/utils/db.server.ts": "import { seed } from '../../db/seed-data';\nexport const s = seed;\n",
    });
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(
      /utils-are-infrastructure: app\/utils\/cache\.ts → app\/content\/preview\.server\.ts/,
    );
    expect(result.output).toMatch(/seed-only-when-seeding: app\/utils\/db\.server\.ts → db\/seed-data\.ts/);

    const dynamic = await cruise({
      "db/seed-data.ts": "export const seed = () => true;\n",
      "app/utils/db.server.ts": "export const s = async () => (await import('../../db/seed-data')).seed();\n",
    });
    expect(dynamic.output).not.toMatch(/error/);
    expect(dynamic.ok).toBe(true);
  });

  it("refuse an import cycle, and features/media using features/visits", async () => {
    const result = await cruise({
      "app/features/visits/visit-page.server.ts":
        "import { kind } from '~/features/media/media.server';\nexport const page = () => kind();\n",
      "app/features/media/media.server.ts":
        "import type { page } from '~/features/visits/visit-page.server';\nexport const kind = () => 1;\nexport type P = typeof page;\n",
    });
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/no-circular: app\/features\/media\/media\.server\.ts/);
    expect(result.output).toMatch(/media-below-visits: app\/features\/media\/media\.server\.ts/);
  });
});
