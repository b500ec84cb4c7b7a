# One image for every service (DESIGN.md section 9): `serve <area>` picks the service.
# Build: docker build -t fieldcast .   Run: docker run fieldcast serve agriculture
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY . .
RUN npx -y pnpm@10 install --frozen-lockfile \
 && npx -y pnpm@10 --filter @fieldcast/fleet deploy --prod --legacy /out

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=build --chown=root:root /out /app
# Non-root, and nothing in /app is writable: run with a read-only root filesystem and a
# writable /tmp (tsx keeps its transpile cache there).
USER node
EXPOSE 8080
ENTRYPOINT ["node", "--import", "tsx", "src/cli.ts"]
CMD ["help"]
