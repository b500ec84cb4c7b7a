# One image for every service (docs/architecture.md §9): `serve <area>` picks the service.
# Build: docker build -t fieldcast .   Run: docker run fieldcast serve agriculture
#
# The build stage compiles the CLI and everything it imports into one JavaScript bundle
# (`pnpm build`, scripts/build.ts); the runtime stage holds only that bundle and the few
# packages that load their own files at run time (PGlite's WebAssembly), so the container
# runs plain `node` with no transpiler and writes nothing at start.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY . .
RUN npx -y pnpm@10 install --frozen-lockfile \
 && npx -y pnpm@10 run build --out /out
# The synthetic world's climate lattice, computed once here (a minute of CPU) so no pod computes
# it again (docs/decisions/0089-climate-lattice-file.md).
RUN FIELDCAST_CACHE_DIR=/out/cache node /out/cli.js climate-lattice

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    FIELDCAST_CACHE_DIR=/app/cache
WORKDIR /app
COPY --from=build --chown=root:root /out /app
# Non-root, and nothing in /app is writable: runs with a read-only root filesystem. An area that
# keeps files (the transfer area's downloads) writes them to a volume mounted on /var/lib/fieldcast,
# owned by the service's user so a fresh named volume is too.
# The synced stores' volume (`serve sync` writes, weather areas read) is mounted on /var/lib/fieldcast-sync.
RUN mkdir -p /var/lib/fieldcast /var/lib/fieldcast-sync && chown node:node /var/lib/fieldcast /var/lib/fieldcast-sync
USER node
EXPOSE 8080
ENTRYPOINT ["node", "cli.js"]
CMD ["help"]
