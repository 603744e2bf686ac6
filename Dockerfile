# Reelsmith's image: the web process and the workers run from it (compose.yaml).
# Build: docker build -t reelsmith .   Run alone (embedded database in the volume): docker run -p 3000:3000 -v reelsmith-data:/data reelsmith
FROM node:24-bookworm-slim AS build
WORKDIR /app
# The lock file decides every version; npm ci refuses a lock file that does not match package.json.
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
# The local preview engine and the upload checks use the system's FFmpeg (docs/operating.md: Video engines and providers).
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir /data \
  && chown node:node /data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  DATA_DIR=/data \
  CLIENT_DIR=/app/dist/client
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The web process and one worker; compose.yaml runs them apart (--services=web, --services=worker).
# The Node flag is the one every Reelsmith process starts with (src/server/node-flags.ts).
CMD ["node", "--max-semi-space-size=8", "dist/server/main.js"]
