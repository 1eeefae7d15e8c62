# syntax=docker/dockerfile:1
# Build: docker build --build-arg SENTRY_RELEASE=$(git rev-parse HEAD) \
#          --secret id=sentry_auth_token,env=SENTRY_AUTH_TOKEN -t outpost .
# Needs BuildKit (default since Docker 23) for the cache and secret mounts.

FROM node:24.21.0-bookworm-slim AS base
WORKDIR /app

FROM base AS deps
# better-sqlite3 (the tunnel's spool) is a native addon, compiled here against the image's own
# Node headers (/usr/local/include/node) when no prebuilt binary can be fetched.
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm_config_nodedir=/usr/local npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
ARG SENTRY_RELEASE
ARG SENTRY_ORG
ARG SENTRY_PROJECT
# The token is read from a secret mount so it never lands in a layer or the build history.
RUN --mount=type=secret,id=sentry_auth_token \
    if [ -s /run/secrets/sentry_auth_token ]; then \
      SENTRY_AUTH_TOKEN="$(cat /run/secrets/sentry_auth_token)"; export SENTRY_AUTH_TOKEN; \
    fi; \
    npm run build
# The server build bundles its packages; the few it leaves external (react, react-dom,
# better-sqlite3) and what they depend on are all the runtime needs from node_modules.
RUN node scripts/image/runtime-modules.mjs /app/runtime
# Node's module compile cache for the server, filled by starting it once here: a container's
# first start then loads compiled code instead of compiling the server (docs/decisions/0006-compile-cache-per-uid.md).
# Made with the image's Node, for the paths it runs from (/app/dist, /app/node_modules), and by
# the user it runs as: Node keeps one cache per user id. Readable by all, since COPY makes it root's.
RUN mkdir /app/compile-cache && chown 1000:1000 /app/compile-cache
USER 1000:1000
RUN node scripts/image/warm-compile-cache.mjs /app/compile-cache && chmod -R a+rX /app/compile-cache

FROM base AS runtime
# tini as PID 1 forwards SIGTERM to node and reaps zombies.
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini \
    && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    METRICS_PORT=9464
# Everything stays root-owned and read-only to the app user; it writes nothing but /tmp and
# the tunnel's spool, a volume of its own so that it outlives the container.
COPY --from=build /app/runtime/node_modules ./node_modules
COPY package.json ./
COPY --from=build /app/dist ./dist
# Read-only to the app user: Node reads it and skips writing to it (checked in the image smoke test).
COPY --from=build /app/compile-cache ./compile-cache
ENV NODE_COMPILE_CACHE=/app/compile-cache
RUN mkdir -p /var/lib/outpost/spool && chown 1000:1000 /var/lib/outpost/spool
ENV SENTRY_TUNNEL_SPOOL_DIR=/var/lib/outpost/spool
VOLUME /var/lib/outpost/spool
# The base image's "node" user, numeric so Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 3000 9464
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# The node arguments are scripts/server-command.mjs's (lint-dockerfile.mjs checks they match).
CMD ["node", "--max-semi-space-size=32", "--import", "./dist/server/instrument.js", "./dist/server/index.js"]
