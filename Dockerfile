# syntax=docker/dockerfile:1
# Build: docker build --build-arg REVISION=$(git rev-parse HEAD) -t switchboard .
# Run:   docker run -p 8080:8080 -e SWITCHBOARD_ADMIN_TOKEN=$(openssl rand -hex 24) switchboard
#        docker run switchboard check --config /srv/switchboard/config   (any subcommand: the entrypoint is the binary)
# Checked without a Docker engine by scripts/container-replay.sh, which reads this file (CI runs it).

FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends pkg-config libpcre2-dev libmicrohttpd-dev libpq-dev libcurl4-openssl-dev libqrencode-dev zlib1g-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The dependencies first, in a layer of their own: a change to the sources does not fetch them again.
COPY Package.swift ./
RUN swift package resolve
COPY Plugins ./Plugins
COPY Sources ./Sources
# The manifest names the test targets, so their folders must exist for it to load.
COPY Tests ./Tests
# The git commit the image is built from: the build context has no .git (docs/operations.md "The image").
ARG REVISION=unknown
RUN SWITCHBOARD_REVISION="$REVISION" swift build -c release --product switchboard --static-swift-stdlib \
 && install -D .build/release/switchboard /out/switchboard

FROM debian:bookworm-slim
ARG REVISION=unknown
LABEL org.opencontainers.image.title="switchboard" \
      org.opencontainers.image.description="Deep-link routing service: resolves app links, rewrites them, serves the answers over HTTP" \
      org.opencontainers.image.version="0.1.0" \
      org.opencontainers.image.revision="$REVISION" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.base.name="debian:bookworm-slim"
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd12 libpcre2-8-0 libpq5 libcurl4 libqrencode4 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 switchboard \
 && useradd --system --uid 10001 --gid 10001 --home-dir /srv/switchboard switchboard \
 && mkdir -p /srv/switchboard/config /srv/switchboard/data \
 && chown -R 10001:10001 /srv/switchboard
COPY --from=build /out/switchboard /usr/local/bin/switchboard
COPY config /srv/switchboard/config
WORKDIR /srv/switchboard
# Numeric, so that Kubernetes can check runAsNonRoot without reading /etc/passwd.
USER 10001:10001
VOLUME ["/srv/switchboard/config", "/srv/switchboard/data"]
EXPOSE 8080
# Settings from the environment (docs/operations.md "Settings from the environment"): `serve`
# and `healthcheck` both read the address here.
ENV SWITCHBOARD_LISTEN=0.0.0.0:8080 \
    SWITCHBOARD_CONFIG=/srv/switchboard/config
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ["switchboard", "healthcheck"]
ENTRYPOINT ["switchboard"]
CMD ["serve"]
