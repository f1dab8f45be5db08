// The render's route trees, patched at install to be built once per build (scripts/patch-router.mjs,
// decision 132): Remix's RemixServer and react-router-dom's createStaticRouter, as patched, render
// the same HTML as the packages' own code (rebuilt from the installed files by undoing the edits),
// page after page, and convert a build's routes only once.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RENDER_MARK, REMIX_SERVER_EDITS, STATIC_ROUTER_EDITS } from "../../scripts/patch-router.mjs";

const require = createRequire(import.meta.url);
type Element = object;
type ReactLike = { createElement: (type: unknown, props?: object | null, ...children: unknown[]) => Element };
const React = require("react") as ReactLike;
const { renderToString } = require("react-dom/server") as { renderToString: (element: Element) => string };
const remixReact = require("@remix-run/react") as {
  Outlet: () => Element;
  useLoaderData: <T>() => T;
};
const { createStaticHandler } = require("@remix-run/router") as {
  createStaticHandler: (routes: object[]) => { query: (request: Request) => Promise<object> };
};

const remixServerFile = require.resolve("@remix-run/react/dist/server.js");
const staticRouterFile = require.resolve("react-router-dom/server");
type StaticRouter = { routes: object[]; state: { matches: { route: { id: string } }[] } };
type StaticServer = { createStaticRouter: (routes: object[], context: object) => StaticRouter };
type RemixServerModule = { RemixServer: (props: { context: object; url: string }) => Element };

/** A package file with the edits undone, loaded as a module of its own (`requireFor` resolves its imports). */
function original<T>(file: string, edits: { from: string; to: string }[], requireFor: (id: string) => unknown): T {
  let source = readFileSync(file, "utf8");
  for (const edit of [...edits].reverse()) source = source.replace(edit.to, () => edit.from);
  expect(source).not.toContain(RENDER_MARK);
  const module = { exports: {} };
  const wrapper = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: `${file}.original`,
  }) as (...args: unknown[]) => void;
  const fileRequire = createRequire(file);
  wrapper(module.exports, (id: string) => requireFor(id) ?? fileRequire(id), module, file, path.dirname(file));
  return module.exports as T;
}

const originalStaticServer = original<StaticServer>(staticRouterFile, STATIC_ROUTER_EDITS, () => undefined);
// The original RemixServer with the original static router under it: both packages as published.
const originalRemixServer = original<RemixServerModule>(remixServerFile, REMIX_SERVER_EDITS, (id) =>
  id === "react-router-dom/server" ? originalStaticServer : undefined,
);
const patchedStaticServer = require("react-router-dom/server") as StaticServer;
const patchedRemixServer = require("@remix-run/react/dist/server.js") as RemixServerModule;

// A build shaped like the app's: a root layout with a loader, pages under it, one with a param.
const manifestRoutes = {
  root: route("root", undefined, ""),
  a: route("a", "root", "a"),
  b: route("b", "root", "b/:name"),
};
function route(id: string, parentId: string | undefined, routePath: string) {
  return {
    id,
    parentId,
    path: routePath,
    index: undefined,
    caseSensitive: undefined,
    hasLoader: true,
    hasAction: false,
    hasClientLoader: false,
    hasClientAction: false,
    hasErrorBoundary: false,
    module: `/build/${id}.js`,
  };
}
type Data = { who: string };
const page = (id: string) =>
  function Page() {
    const data = remixReact.useLoaderData<Data>();
    return React.createElement(
      id === "root" ? "main" : "section",
      { id },
      data.who,
      React.createElement(remixReact.Outlet),
    );
  };
const routeModules = Object.fromEntries(Object.keys(manifestRoutes).map((id) => [id, { default: page(id) }]));
const handler = createStaticHandler([
  {
    id: "root",
    path: "/",
    loader: () => ({ who: "the root" }),
    children: [
      { id: "a", path: "a", loader: () => ({ who: "page a" }) },
      {
        id: "b",
        path: "b/:name",
        loader: ({ params }: { params: { name: string } }) => ({ who: `page b of ${params.name}` }),
      },
    ],
  },
]);

/** A new entry context per request, as Remix makes one; the manifest is the build's (one object). */
const manifest = {
  routes: manifestRoutes,
  entry: { module: "/build/entry.js", imports: [] },
  url: "/build/m.js",
  version: "1",
};
async function entryContext(url: string) {
  return {
    manifest,
    routeModules: { ...routeModules },
    staticHandlerContext: await handler.query(new Request(url)),
    future: { v3_fetcherPersist: false, v3_relativeSplatPath: false, v3_singleFetch: false },
    isSpaMode: false,
    serializeError: (error: Error) => ({ message: error.message }),
    renderMeta: {},
  };
}
const render = async (server: RemixServerModule, url: string) =>
  renderToString(React.createElement(server.RemixServer, { context: await entryContext(url), url }));

afterEach(() => vi.restoreAllMocks());

describe("the render's route trees as patched at install (decision 132)", () => {
  it("is patched: npm install ran scripts/patch-router.mjs on both files", () => {
    expect(readFileSync(remixServerFile, "utf8")).toContain(RENDER_MARK);
    expect(readFileSync(staticRouterFile, "utf8")).toContain(RENDER_MARK);
    expect(patchedStaticServer.createStaticRouter).not.toBe(originalStaticServer.createStaticRouter);
  });

  it("renders every page as the packages' own code does, page after page", async () => {
    const urls = ["http://x/a", "http://x/b/rex", "http://x/a", "http://x/b/fido", "http://x/"];
    for (const url of urls) {
      const html = await render(patchedRemixServer, url);
      expect(html).toBe(await render(originalRemixServer, url));
      expect(html).toContain("the root");
    }
    expect(await render(patchedRemixServer, "http://x/b/fido")).toContain("page b of fido");
    expect(await render(patchedRemixServer, "http://x/a")).not.toContain("page b");
  });

  it("converts a build's routes once, and another build's afresh", async () => {
    const routesModule = require("@remix-run/react/dist/routes.js") as { createServerRoutes: () => unknown };
    const convert = vi.spyOn(routesModule, "createServerRoutes");
    // Another manifest object (a rebuilt app in development) is converted once, then reused.
    const rebuilt = { ...manifest, routes: { ...manifestRoutes } };
    for (const url of ["http://x/a", "http://x/b/rex", "http://x/"]) {
      const context = { ...(await entryContext(url)), manifest: rebuilt };
      renderToString(React.createElement(patchedRemixServer.RemixServer, { context, url }));
    }
    expect(convert).toHaveBeenCalledTimes(1);

    const context = (await entryContext("http://x/b/rex")).staticHandlerContext;
    const serverRoutes = [{ id: "root", path: "/", children: [{ id: "b", path: "b/:name" }] }];
    const first = patchedStaticServer.createStaticRouter(serverRoutes, context);
    const second = patchedStaticServer.createStaticRouter(serverRoutes, context);
    expect(second.routes).toBe(first.routes);
    expect(first.state.matches.map((match) => match.route.id)).toEqual(["root", "b"]);
    expect(patchedStaticServer.createStaticRouter([...serverRoutes], context).routes).not.toBe(first.routes);
  });
});
