# The two helpers of docker/compose.scale.yml, from Debian's own packages
# (bookworm: redis-server 7.0, haproxy 2.6), as the server's image is:
#
#   target redis     Redis for the site, its data in /var/lib/redis
#                    (the flags, AOF among them, are compose.scale.yml's)
#   target balancer  haproxy with docker/haproxy.cfg, on port 8080
#
# Build context: the repository root (compose.scale.yml does both).

FROM debian:bookworm-slim AS redis
RUN apt-get update \
	&& DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		redis-server \
	&& apt-get clean \
	&& rm -rf /var/lib/apt/lists/* \
	&& install -d -o redis -g redis -m 0750 /var/lib/redis
USER redis
WORKDIR /var/lib/redis
VOLUME /var/lib/redis
EXPOSE 6379
HEALTHCHECK --interval=5s --timeout=3s --retries=3 \
	CMD ["redis-cli", "ping"]
ENTRYPOINT ["redis-server"]

FROM debian:bookworm-slim AS balancer
RUN apt-get update \
	&& DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		haproxy \
	&& apt-get clean \
	&& rm -rf /var/lib/apt/lists/*
COPY docker/haproxy.cfg /etc/haproxy/haproxy.cfg
USER haproxy
EXPOSE 8080
ENTRYPOINT ["haproxy", "-W", "-db", "-f", "/etc/haproxy/haproxy.cfg"]
