# gloam-server in a container: built in a Rust image, run from one that
# holds the binary and the C runtime it links (glibc, libgcc) and nothing
# else: no shell, no package manager. docs/hosting.md says how to run it;
# server/tests/integration/hosting.rs builds it and asks it for /health
# where a Docker engine answers.
#
#   docker build -t gloam-server .
#   docker run -p 7777:7777 -p 127.0.0.1:9000:9000 -v gloam-data:/data gloam-server

# The toolchain of the workspace's rust-version or newer, on Debian 12,
# the same Debian as the runtime image below (the same glibc).
FROM rust:1-bookworm AS build
WORKDIR /src
# Everything the workspace's manifests name (the window's crate too: cargo
# reads every member), less what .dockerignore leaves out. The web client's
# page is taken from the committed web/dist/: no Node here.
COPY . .
RUN cargo build --release --locked -p gloam-server --bin gloam-server \
    && mkdir /data

# distroless's "cc" image: glibc, libgcc, CA certificates and time zones; it
# runs as an unprivileged user (65532) whose home is this image's only
# writable folder we make: /data, the world.
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /src/target/release/gloam-server /gloam-server
COPY --from=build --chown=65532:65532 /data /data
VOLUME /data
# The game (WebSocket and the web client's page) and the health port.
EXPOSE 7777 9000
ENTRYPOINT ["/gloam-server"]
# The health port takes probes from outside the container; POST /drain is
# only ever taken from its loopback (inside the pod), whatever it binds.
CMD ["--bind", "0.0.0.0:7777", "--health", "0.0.0.0:9000", "--data", "/data"]
