# syntax=docker/dockerfile:1
# Build: docker build --build-arg SENTRY_RELEASE=$(git rev-parse HEAD) \
#          --secret id=sentry_auth_token,env=SENTRY_AUTH_TOKEN -t outpost .
# Needs BuildKit (default since Docker 23) for the cache and secret mounts.

FROM node:24.21.0-bookworm-slim AS base
WORKDIR /app

FROM base AS deps
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund

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
# The server build bundles its packages; the few it leaves external (react, react-dom) and
# what they depend on are all the runtime needs from node_modules.
RUN node scripts/image/runtime-modules.mjs /app/runtime

FROM base AS runtime
# tini as PID 1 forwards SIGTERM to node and reaps zombies.
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini \
    && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    METRICS_PORT=9464
# Everything stays root-owned and read-only to the app user; it writes nothing but /tmp.
COPY --from=build /app/runtime/node_modules ./node_modules
COPY package.json ./
COPY --from=build /app/dist ./dist
# The base image's "node" user, numeric so Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 3000 9464
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--enable-source-maps", "--import", "./dist/server/instrument.js", "./dist/server/index.js"]
