# syntax=docker/dockerfile:1
# Build stage: native modules (better-sqlite3) compile here, TypeScript and the web UI are built, dev
# dependencies are pruned. Runtime stage: Node, git (working copies, delivery), bubblewrap (confinement) and
# the compiled app only.

FROM node:20-bookworm-slim AS build
WORKDIR /opt/wfctl
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY core ./core
COPY sql ./sql
COPY queue ./queue
COPY workers ./workers
COPY server ./server
COPY cli ./cli
COPY bench ./bench
COPY test ./test
COPY scripts ./scripts
COPY web-components ./web-components
COPY seed-data ./seed-data
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim AS runtime
ARG INSTALL_AGENT_CLIS=0
RUN apt-get update \
 && apt-get install -y --no-install-recommends git bubblewrap ca-certificates openssh-client tini \
 && rm -rf /var/lib/apt/lists/*
# Optional: the agent CLIs themselves, for `runtime: direct` agents inside the container.
RUN if [ "$INSTALL_AGENT_CLIS" = "1" ]; then \
      npm install -g @anthropic-ai/claude-code @openai/codex @google/gemini-cli && npm cache clean --force; \
    fi
WORKDIR /opt/wfctl
COPY --from=build /opt/wfctl/package.json ./package.json
COPY --from=build /opt/wfctl/node_modules ./node_modules
COPY --from=build /opt/wfctl/dist ./dist
COPY --from=build /opt/wfctl/web-components/dist ./web-components/dist
COPY --from=build /opt/wfctl/sql/migrations ./sql/migrations
COPY --from=build /opt/wfctl/seed-data ./seed-data
RUN useradd --create-home --uid 10001 wfctl \
 && mkdir -p /app/data /app/artifacts /app/secrets /app/codebases \
 && chown -R wfctl:wfctl /app && chmod 700 /app/secrets \
 && printf '#!/bin/sh\nexec node /opt/wfctl/dist/cli/bin.js "$@"\n' > /usr/local/bin/wfctl \
 && chmod 755 /usr/local/bin/wfctl
ENV WFCTL_HOME=/app \
    WFCTL_DB=/app/data/app.db \
    WFCTL_HOST=0.0.0.0 \
    WFCTL_PORT=8080
USER wfctl
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=15s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:8080/api/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# tini forwards SIGTERM to wfctl, which drains in-flight nodes before exiting.
ENTRYPOINT ["tini", "--", "node", "/opt/wfctl/dist/cli/bin.js"]
CMD ["serve"]
