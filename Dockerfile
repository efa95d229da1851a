# syntax=docker/dockerfile:1
# Fieldline images (issue 23). Targets:
#   server  — API server + web app (`fieldline serve`)
#   worker  — job runner: `worker` (BullMQ) by default; AWS Batch runs it with the command `batch-run <jobId>`
# Build: docker build --target server -t fieldline:server . && docker build --target worker -t fieldline:worker .
# (podman/buildah accept the same file.) Both images hold the engine: the server meshes and converts
# uploads itself, and with the embedded queue it also solves.

ARG NODE_IMAGE=node:20.19-bookworm-slim

# ---- node dependencies (all workspaces; dev dependencies too: the web build and tsx need them) ----
FROM ${NODE_IMAGE} AS node-deps
# better-sqlite3 (the embedded default's database) is a native addon: `npm rebuild` fetches its prebuilt
# binary, or compiles it where none matches or the download is blocked (python3, make, g++).
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
# No install scripts but better-sqlite3's (the others are dev tools' optional post-install steps).
RUN npm ci --no-audit --no-fund --ignore-scripts && npm rebuild better-sqlite3

# ---- web build (Vite; precompressed assets) ----
FROM node-deps AS web-build
COPY tsconfig.base.json biome.json ./
COPY contracts contracts
# The Validation page imports the validation report and the benches' summaries from outside web/.
COPY docs/validation docs/validation
COPY bench bench
COPY web web
RUN npm run build -w web

# ---- server build: TypeScript → one ES module, server/dist/main.js (scripts/build-server.mjs) ----
FROM node-deps AS server-build
COPY scripts/build-server.mjs scripts/
COPY contracts contracts
COPY server server
RUN node scripts/build-server.mjs

# ---- the forked spares' compiled launcher (engine/launcher/spare_launcher.c, scripts/build-launcher.mjs): ≈ 1 ms of
# CPU per job instead of the Python launcher's ≈ 20–30 ms; built where the compiler is (node-deps has gcc) ----
FROM node-deps AS launcher-build
COPY scripts/build-launcher.mjs scripts/
COPY engine/launcher engine/launcher
RUN node scripts/build-launcher.mjs && ls engine/launcher/build/spare-launcher-*

# ---- engine: Python 3.11 (Debian bookworm's) with the pinned wheels from engine/pyproject.toml ----
# libquadmath0: NGSolve's wheel links it and does not bundle it (slim images lack it); libgomp1 and the
# X/GL libraries are gmsh's (libGLU no longer pulls libGL in), loaded at import even headless.
FROM ${NODE_IMAGE} AS engine
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      python3 python3-venv libquadmath0 libgomp1 libgl1 libglu1-mesa libxcursor1 libxft2 libxinerama1 libxrender1 libxext6 \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY engine engine
RUN python3 -m venv .venv \
 && .venv/bin/pip install --no-cache-dir --quiet --upgrade pip \
 && .venv/bin/pip install --no-cache-dir --quiet --only-binary mpi4py,mpich ./engine \
 && .venv/bin/python -c "import ngsolve, gmsh"

# ---- runtime base: engine + node + the compiled server (plain node, no TypeScript loader) ----
FROM engine AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    ENGINE_PYTHON=/app/.venv/bin/python \
    ENGINE_DIR=/app/engine
COPY --from=node-deps /app/node_modules node_modules
# npm keeps a workspace's own copy where its version differs from the hoisted one (server: @fastify/cookie).
COPY --from=node-deps /app/server/node_modules server/node_modules
COPY package.json tsconfig.base.json ./
COPY config config
COPY contracts contracts
COPY server server
COPY --from=server-build /app/server/dist server/dist
COPY --from=launcher-build /app/engine/launcher/build engine/launcher/build
RUN useradd --system --uid 10001 --home /data fieldline && mkdir -p /data && chown fieldline /data
USER fieldline
WORKDIR /app/server
# node is PID 1 and handles SIGTERM itself (graceful stop / re-queue), so no wrapper process in between.
# SERVER_ENV of scripts/build-server.mjs: two malloc arenas and a fixed 64 kB mmap threshold keep the server's
# RSS from wandering after big bodies.
ENV MALLOC_ARENA_MAX=2
ENV MALLOC_MMAP_THRESHOLD_=65536
# The flags are SERVER_NODE_ARGS of scripts/build-server.mjs (a fixed 16 MB young generation: fewer GC pauses).
ENTRYPOINT ["node", "--enable-source-maps", "--min-semi-space-size=16", "--max-semi-space-size=16", "/app/server/dist/main.js"]

FROM runtime AS worker
CMD ["worker"]

FROM runtime AS server
COPY --from=web-build /app/web/dist /app/web/dist
ENV WEB_DIST_DIR=/app/web/dist PORT=8080
EXPOSE 8080
CMD ["serve"]
