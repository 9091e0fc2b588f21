# syntax=docker/dockerfile:1
# Build: docker build -t switchboard .
# Run:   docker run -p 8080:8080 -e SWITCHBOARD_ADMIN_TOKEN=secret switchboard
# Checked without a Docker engine by scripts/container-replay.sh, which reads this file (CI runs it).

FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends pkg-config libpcre2-dev libmicrohttpd-dev libpq-dev libcurl4-openssl-dev libqrencode-dev zlib1g-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
# The manifest names the test targets, so their folders must exist for it to load.
COPY Tests ./Tests
RUN swift build -c release --product switchboard --static-swift-stdlib \
 && install -D .build/release/switchboard /out/switchboard

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd12 libpcre2-8-0 libpq5 libcurl4 libqrencode4 curl ca-certificates \
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
HEALTHCHECK --interval=10s --timeout=2s --retries=3 CMD curl -fsS http://127.0.0.1:8080/livez || exit 1
ENTRYPOINT ["switchboard", "serve", "--config", "/srv/switchboard/config", "--listen", "0.0.0.0:8080"]
