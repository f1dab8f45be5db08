# syntax=docker/dockerfile:1
# Node 22 LTS in production (Node 20 reached end of life in April 2026; see STACK.md).
FROM node:22-bookworm-slim AS base
ENV NODE_ENV=production
WORKDIR /app

# Everything needed to build: dev dependencies included. The Sanity Studio is a package of its
# own (studio/package-lock.json), deployed apart; the app never installs it.
FROM base AS build
COPY package.json package-lock.json ./
# npm ci's postinstall patches the router's route matching (decision 122).
COPY scripts/patch-router.mjs scripts/
RUN npm ci --include=dev --no-audit --no-fund
COPY . .
# The server build, the browser scripts and build/scripts/ (migrate, admin-role, outbox-send, visits-generate, billing-run).
RUN npm run build

# Only what runs: production dependencies (134 MB, decision 013).
FROM base AS deps
COPY package.json package-lock.json ./
COPY scripts/prune-dev-optional.mjs scripts/patch-router.mjs scripts/
RUN npm ci --omit=dev --no-audit --no-fund && node scripts/prune-dev-optional.mjs

FROM base
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=deps /app/node_modules /app/node_modules
COPY --from=build /app/build /app/build
COPY --from=build /app/public /app/public
COPY package.json server.js ./
COPY server ./server
# The bundled content dataset (the fallback when Sanity is not configured).
COPY studio/data ./studio/data
# The app runs as the unprivileged `node` user. The only paths it writes: DATA_DIR (PGlite in
# development builds, and the default uploads folder) and UPLOADS_DIR when a Fly volume is
# mounted there instead of S3. Both belong to `node`; the code itself stays read-only.
RUN mkdir -p /data/uploads && chown -R node:node /data
ENV DATA_DIR=/data
USER node
# A 256 MB machine: V8's old space stops at 144 MiB, so the heap collects before the machine
# runs out; the rest is code, the young generation, the page cache's buffers (8 MiB) and one
# scrypt hash (32 MiB) at most. docs/decisions/062-memory-on-a-256-mb-machine.md
ENV NODE_OPTIONS="--max-old-space-size=144"
# glibc gives every thread that mallocs its own arena; sharp's libvips and libuv threads would each
# keep one, and memory freed there is not returned. Two arenas, as sharp's docs advise (decision 056).
ENV MALLOC_ARENA_MAX=2
EXPOSE 3000
CMD ["node", "server.js"]
