#!/usr/bin/env bash
#
# test-image.sh - build docker/Dockerfile unchanged and test the image.
#
# These machines have no Docker engine, so this follows
# ../shared/CONTAINERS.md: podman builds the Dockerfile (chroot isolation)
# and `buildah run --isolation chroot` runs the image's entrypoint, as the
# image's user, on the host network. The official Debian base images cannot
# be pulled here, so a local stand-in is made once with debootstrap from
# Debian's mirror and kept in podman's image store.
#
# Checks: the image config (non-root user, exec-form entrypoint, health
# check, port, volume, labels), the run-time libraries, the size, that
# docker/compose.yml passes every server variable; then a server started
# from the image: its process's uid (the image's non-root user), /healthz
# and the web client, a whole game played by two integration-test clients
# and its record in the games journal, the image's health-check command,
# SIGTERM (every client closed with 1001, exit status 0 within 2 s), and a
# restart that still has the game. Then the site of
# docker/compose.scale.yml: docker/site.Dockerfile's two targets built,
# Redis run from its image with the compose file's flags, three instances
# of the server's image with the compose file's environment, and haproxy
# from its image with docker/haproxy.cfg (Docker's DNS lookup replaced by
# the three ports): a whole game through it, listed in the site's
# /api/games, the two players on two instances; every process stopped
# with SIGTERM, and Redis's AOF written.
#
# Runs as root (through sudo when started as another user) for apt-get,
# debootstrap, podman and buildah; needs node with
# tests/node_modules (npm ci in tests/; ./gomoku.sh test does it first).
# Ends with "container: N passed, M failed"; exits non-zero on any failure,
# including an image that cannot be built. Nothing is skipped.
#
# Environment: GOMOKU_CONTAINER_PORT picks the host port the server listens
# on (default: a free one; never 8080, which a developer may be using).

set -euo pipefail
export LC_ALL=C # a decimal point in EPOCHREALTIME and awk, whatever the locale

# apt-get, debootstrap, podman and buildah need root (CONTAINERS.md's
# recipe is the rootful one), and so does signalling the server, which runs
# as the image's user: the whole test runs as root.
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || {
		echo "test-image.sh: needs root (podman, buildah, debootstrap); run it as root or install sudo" >&2
		echo "container: 0 passed, 1 failed (not root, no sudo)"
		exit 1
	}
	exec sudo --preserve-env env PATH="$PATH" bash "$0" "$@"
fi

REPO=$(cd "$(dirname -- "$(readlink -f -- "$0")")/../.." && pwd)
TESTS_DIR=$REPO/tests
IMAGE=localhost/gomoku:container-test
BASE_SLIM=docker.io/library/debian:bookworm-slim
BASE_FULL=docker.io/library/debian:bookworm
DEBIAN_MIRROR=http://deb.debian.org/debian
SIZE_LIMIT_MB=120 # decimal megabytes (1 MB = 1000 * 1000 bytes), as docker shows
WEB_ROOT_IN_IMAGE=/usr/share/gomoku/web

PASSED=0
FAILED=0
CTR=""          # the working container (buildah from)
RUN_PID=""      # the `buildah run` process serving the image
SERVER_PID=""   # gomoku-server inside it
ROOTFS_DIR=""   # debootstrap's target while the base image is made
LOG_DIR=$(mktemp -d /tmp/gomoku-container-test.XXXXXX)
STARTED=$EPOCHREALTIME

header()
{
	printf '\n=== %s\n' "$*"
}

pass()
{
	PASSED=$((PASSED + 1))
	printf 'PASS  %s\n' "$*"
}

fail()
{
	FAILED=$((FAILED + 1))
	printf 'FAIL  %s\n' "$*"
}

# Records a check: check "what was checked" command...
check()
{
	local what=$1
	shift
	if "$@"; then
		pass "$what"
	else
		fail "$what"
	fi
}

# Stops here: a step everything after it depends on went wrong.
abort()
{
	fail "$*"
	printf '\ncontainer: %d passed, %d failed (stopped early: %s)\n' \
		"$PASSED" "$FAILED" "$*"
	exit 1
}

# Seconds since $1 (an EPOCHREALTIME value), with one decimal.
seconds_since()
{
	awk -v from="$1" -v to="$EPOCHREALTIME" 'BEGIN { printf "%.1f", to - from }'
}

SITE_PIDS=()    # the site's `buildah run` processes
SITE_CTRS=()    # and their containers

cleanup()
{
	local status=$?
	if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
		kill -KILL "$SERVER_PID" 2>/dev/null || true
	fi
	if [ -n "$RUN_PID" ]; then
		wait "$RUN_PID" 2>/dev/null || true
	fi
	for pid in "${SITE_PIDS[@]}"; do
		# every descendant (the server is a grandchild), then the run
		local tree=$pid pids=$pid
		while [ -n "$pids" ]; do
			pids=$(for p in $pids; do pgrep -P "$p"; done | xargs)
			tree="$tree $pids"
		done
		# shellcheck disable=SC2086 # a list of pids
		kill -KILL $tree 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	# Only once `buildah run` has returned (CONTAINERS.md: earlier panics).
	if [ -n "$CTR" ]; then
		buildah rm "$CTR" >/dev/null 2>&1 || true
	fi
	for ctr in "${SITE_CTRS[@]}"; do
		buildah rm "$ctr" >/dev/null 2>&1 || true
	done
	[ -z "$ROOTFS_DIR" ] || rm -rf "$ROOTFS_DIR"
	rm -rf "$LOG_DIR"
	exit "$status"
}
trap cleanup EXIT

# ---------------------------------------------------------------------------
header "tools: podman, buildah, debootstrap, node"

missing=""
for tool in podman buildah debootstrap; do
	command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
	echo "installing:$missing"
	apt-get update -q ||
		abort "apt-get update failed (needed to install$missing)"
	# shellcheck disable=SC2086 # a list of package names
	env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $missing ||
		abort "apt-get install$missing failed"
fi
echo "$(podman --version), $(buildah --version | cut -d' ' -f1-3)"
command -v node >/dev/null 2>&1 ||
	abort "node not found: run ./gomoku.sh deps test"
[ -d "$TESTS_DIR/node_modules/ws" ] ||
	abort "tests/node_modules/ws is missing: run 'cd tests && npm ci' (./gomoku.sh test does)"
pass "podman, buildah, debootstrap and node are there"

# ---------------------------------------------------------------------------
header "base images: $BASE_SLIM and $BASE_FULL (local stand-ins)"

# The official images cannot be pulled here. The stand-in is a debootstrap
# minbase of bookworm from Debian's mirror, trimmed the way the official
# slim images are (no docs, man pages or locales, no apt lists or cached
# packages, and the dpkg and apt config that keeps later installs that
# way), so that the size check measures about what a real host's image
# weighs (this base: about 78 MB; the official slim one: about 75 MB).
# Made once, then kept in podman's image store.
if podman image exists "$BASE_SLIM" &&
   podman image exists "$BASE_FULL"; then
	echo "cached in podman's store: not rebuilt ('podman untag $BASE_SLIM' drops both names, to redo)"
else
	ROOTFS_DIR=$(mktemp -d /var/tmp/gomoku-rootfs.XXXXXX)
	rootfs=$ROOTFS_DIR/rootfs
	t0=$EPOCHREALTIME
	echo "debootstrap --variant=minbase bookworm (log: $LOG_DIR/debootstrap.log)"
	if ! debootstrap --variant=minbase bookworm "$rootfs" \
		"$DEBIAN_MIRROR" >"$LOG_DIR/debootstrap.log" 2>&1; then
		tail -n 20 "$LOG_DIR/debootstrap.log"
		abort "debootstrap of bookworm from $DEBIAN_MIRROR failed"
	fi
	mkdir -p "$rootfs/etc/dpkg/dpkg.cfg.d"
	cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-slim" <<'EOF'
# Like the official debian:*-slim images: leave out what a container
# never reads.
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
EOF
	# And the apt config of the official images: no package cache kept
	# after an install, no translations.
	cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
	echo 'Acquire::Languages "none";' \
		>"$rootfs/etc/apt/apt.conf.d/docker-no-languages"
	find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright \
		-not -type d -delete
	rm -rf "$rootfs"/usr/share/{groff,info,linda,lintian/overrides,locale,man}/* \
		"$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin \
		"$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/log/*.log \
		"$rootfs"/var/log/apt/*
	tar -C "$rootfs" -c . | podman import - "$BASE_SLIM" \
		>/dev/null || abort "podman import of the debootstrapped rootfs failed"
	podman tag "$BASE_SLIM" "$BASE_FULL"
	rm -rf "$ROOTFS_DIR"
	ROOTFS_DIR=""
	echo "debootstrap and import took $(seconds_since "$t0") s"
fi
base_size=$(podman image inspect --format '{{.Size}}' "$BASE_SLIM")
printf 'base image: %s bytes (%.1f MB)\n' "$base_size" \
	"$(awk -v b="$base_size" 'BEGIN { print b / 1e6 }')"
pass "local base images are in podman's store"

# ---------------------------------------------------------------------------
header "build: docker/Dockerfile, unchanged"

# --format docker keeps HEALTHCHECK (the OCI image format has no field for
# it); --pull=never uses the local base images; chroot isolation is the one
# that works on these machines.
old_image=$(podman image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
revision=$(git -C "$REPO" rev-parse HEAD 2>/dev/null || echo unknown)
t0=$EPOCHREALTIME
if ! podman build --isolation=chroot --pull=never --format docker \
	--build-arg GOMOKU_REVISION="$revision" \
	-f "$REPO/docker/Dockerfile" -t "$IMAGE" "$REPO" \
	>"$LOG_DIR/build.log" 2>&1; then
	tail -n 40 "$LOG_DIR/build.log"
	abort "podman build -f docker/Dockerfile failed (last 40 lines above)"
fi
build_seconds=$(seconds_since "$t0")
# The steps, and which of them came from podman's layer cache.
grep -E 'STEP [0-9]+/[0-9]+: |Using cache' "$LOG_DIR/build.log" | cut -c1-110 || true
echo "build took $build_seconds s"
pass "docker/Dockerfile builds ($build_seconds s)"
new_image=$(podman image inspect --format '{{.Id}}' "$IMAGE")
if [ -n "$old_image" ] && [ "$old_image" != "$new_image" ]; then
	# The previous build of this test, now untagged: keep the store small.
	podman rmi "$old_image" >/dev/null 2>&1 || true
fi

# ---------------------------------------------------------------------------
header "image config"

inspect()
{
	podman image inspect --format "$1" "$IMAGE"
}

image_user=$(inspect '{{.Config.User}}')
entrypoint=$(inspect '{{json .Config.Entrypoint}}')
image_cmd=$(inspect '{{json .Config.Cmd}}')
healthcheck=$(inspect '{{json .Config.Healthcheck.Test}}' 2>/dev/null || echo null)
ports=$(inspect '{{json .Config.ExposedPorts}}')
echo "User=$image_user Entrypoint=$entrypoint Cmd=$image_cmd"
echo "Healthcheck=$healthcheck ExposedPorts=$ports"

# The uid the image's USER stands for (a number, or a name in its passwd).
user_part=${image_user%%:*}
case $user_part in
'') image_uid=0 ;;
*[!0-9]*)
	image_uid=$(awk -F: -v name="$user_part" '$1 == name { print $3 }' \
		"$(podman image mount "$IMAGE")/etc/passwd")
	podman image unmount "$IMAGE" >/dev/null ;;
*) image_uid=$user_part ;;
esac
check "the image runs as a non-root user (USER \"$image_user\", uid ${image_uid:-?})" \
	test -n "$image_uid" -a "${image_uid:-0}" != 0
check "the entrypoint is exec form, gomoku-server itself ($entrypoint)" \
	test "$entrypoint" = '["/usr/local/bin/gomoku-server"]'
check "HEALTHCHECK runs gomoku-server --health-check ($healthcheck)" \
	test "$healthcheck" = '["CMD","gomoku-server","--health-check"]'
check "the image exposes 8080/tcp" grep -q '"8080/tcp"' <<<"$ports"
check "the image sets GOMOKU_WEB_ROOT=$WEB_ROOT_IN_IMAGE" \
	grep -qx "GOMOKU_WEB_ROOT=$WEB_ROOT_IN_IMAGE" \
	<<<"$(inspect '{{range .Config.Env}}{{println .}}{{end}}')"
check "the image sets GOMOKU_DB in the volume /var/lib/gomoku" \
	grep -qx "GOMOKU_DB=/var/lib/gomoku/.*" \
	<<<"$(inspect '{{range .Config.Env}}{{println .}}{{end}}')"
check "the image declares the volume /var/lib/gomoku" \
	grep -q '"/var/lib/gomoku"' <<<"$(inspect '{{json .Config.Volumes}}')"
label_version=$(inspect '{{index .Config.Labels "org.opencontainers.image.version"}}')
label_title=$(inspect '{{index .Config.Labels "org.opencontainers.image.title"}}')
label_revision=$(inspect '{{index .Config.Labels "org.opencontainers.image.revision"}}')
echo "labels: title=$label_title version=$label_version revision=$label_revision"
# The revision is only checked to be a commit id: podman's layer cache
# keeps the LABEL layer of an earlier build whose sources were the same
# (a build argument alone does not invalidate it here).
check "OCI labels title, version and revision are set" \
	test -n "$label_title" -a -n "$label_version" -a \
	"${#label_revision}" -eq 40 -a -z "${label_revision//[0-9a-f]/}"

# ---------------------------------------------------------------------------
header "image size"

size=$(inspect '{{.Size}}')
size_mb=$(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1e6 }')
size_mib=$(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1048576 }')
added_mb=$(awk -v b="$size" -v base="$base_size" 'BEGIN { printf "%.1f", (b - base) / 1e6 }')
echo "image: $size bytes = $size_mb MB = $size_mib MiB ($added_mb MB on top of the base)"
check "the image is under $SIZE_LIMIT_MB MB ($size_mb MB, 1 MB = 10^6 bytes)" \
	test "$size" -lt $((SIZE_LIMIT_MB * 1000 * 1000))

# ---------------------------------------------------------------------------
header "inside the image: binary, libraries, no build tools"

CTR=$(buildah from --pull-never "$IMAGE") ||
	abort "buildah from $IMAGE failed"

# True when ldd output $1 resolves every library and names library $2.
all_found()
{
	! grep -q "not found" <<<"$1" && grep -q "$2" <<<"$1"
}

# True when the command fails.
fails()
{
	! "$@"
}

# Runs a command in the working container as the image's user.
in_image()
{
	buildah run --isolation chroot --user "$image_user" "$CTR" -- "$@"
}

version_out=$(in_image /usr/local/bin/gomoku-server --version 2>&1) ||
	abort "gomoku-server --version does not run in the image: $version_out"
echo "$version_out"
check "gomoku-server --version ($version_out) matches the version label ($label_version)" \
	grep -q -- " $label_version\$" <<<"$version_out"
ldd_out=$(in_image ldd /usr/local/bin/gomoku-server 2>&1) || true
check "every library gomoku-server links against is in the image" \
	all_found "$ldd_out" libwebsockets.so.17
# lws loads its libuv event-loop plugin at run time: ldd cannot see it.
evlib_out=$(in_image sh -c 'ldd /usr/lib/*/libwebsockets-evlib_uv.so' 2>&1) || true
check "libwebsockets' libuv plugin and libuv are in the image" \
	all_found "$evlib_out" libuv.so.1
check "the web client is in the image ($WEB_ROOT_IN_IMAGE/index.html)" \
	in_image test -f "$WEB_ROOT_IN_IMAGE/index.html"
check "the run-time image has no compiler, make or cmake" \
	in_image sh -c '! command -v cc && ! command -v gcc && ! command -v make && ! command -v cmake'

# ---------------------------------------------------------------------------
header "compose file: every server variable, with the image's defaults"

# The server's variables and defaults, from its --help ("(default: X)" on
# a flag's line, "env: GOMOKU_X" on the next); the image's ENV overrides
# them, and "all addresses" is 0.0.0.0.
help_out=$(in_image /usr/local/bin/gomoku-server --help 2>&1) || true
image_env=$(inspect '{{range .Config.Env}}{{println .}}{{end}}')
defaults=$(awk '
	/\(default: / { sub(/.*\(default: /, ""); sub(/\).*/, ""); value = $0; next }
	/env: GOMOKU_/ { sub(/.*env: /, ""); print $1 "=" value; value = "" }' <<<"$help_out")
[ -n "$defaults" ] || abort "gomoku-server --help lists no GOMOKU_* variable"
compose_problems=""
while IFS='=' read -r var default; do
	image_value=$(sed -n "s/^$var=//p" <<<"$image_env")
	[ -n "$image_value" ] && default=$image_value
	[ "$default" = "all addresses" ] && default=0.0.0.0
	line=$(grep -E "^ +$var: " "$REPO/docker/compose.yml" || true)
	if [ -z "$line" ]; then
		compose_problems="$compose_problems $var (missing)"
	elif [ "$line" != "      $var: \${$var:-$default}" ]; then
		compose_problems="$compose_problems $var (expected \${$var:-$default}, got ${line#*: })"
	fi
done <<<"$defaults"
echo "server variables: $(cut -d= -f1 <<<"$defaults" | tr '\n' ' ')"
check "docker/compose.yml passes each from the environment, defaulting to the image's value${compose_problems:+:$compose_problems}" \
	test -z "$compose_problems"
for key in 'restart: unless-stopped' 'stop_grace_period:' 'max-size:' \
	'dockerfile: docker/Dockerfile' 'gomoku-data:/var/lib/gomoku'; do
	check "docker/compose.yml has $key" grep -q -- "$key" "$REPO/docker/compose.yml"
done

# ---------------------------------------------------------------------------
# Running the image: `buildah run` of its entrypoint and cmd, as its user,
# on the host network (chroot isolation), on a free high port.

free_port()
{
	node -e '
		const s = require("net").createServer();
		s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# The server is a descendant of `buildah run` (chroot isolation: a plain
# host process in a chroot): the first descendant of pid $1 whose command
# is $2, found by walking the process tree.
descendant()
{
	local pids=$1 pid children
	while [ -n "$pids" ]; do
		children=""
		for pid in $pids; do
			if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ]; then
				echo "$pid"
				return 0
			fi
			children="$children $(pgrep -P "$pid" | tr '\n' ' ')"
		done
		pids=$(xargs <<<"$children")
	done
	return 1
}

# Starts the image's command on $port, output to $LOG_DIR/server-$1.log;
# sets RUN_PID and SERVER_PID, or stops the test.
start_server()
{
	local log=$LOG_DIR/server-$1.log
	echo "buildah run --user $image_user --env GOMOKU_PORT=$port -- ${run_argv[*]}"
	buildah run --isolation chroot --user "$image_user" \
		--env GOMOKU_PORT="$port" "$CTR" -- "${run_argv[@]}" \
		>"$log" 2>&1 &
	RUN_PID=$!
	SERVER_PID=""
	for _ in $(seq 1 100); do
		SERVER_PID=$(descendant "$RUN_PID" gomoku-server) && break
		kill -0 "$RUN_PID" 2>/dev/null || break
		sleep 0.1
	done
	if [ -z "$SERVER_PID" ]; then
		cat "$log"
		abort "gomoku-server did not start from the image (its output above)"
	fi
	echo "gomoku-server is pid $SERVER_PID on port $port"
}

# Waits for `buildah run` to return (the server gone); checks its status.
expect_exit_zero()
{
	local status=0
	wait "$RUN_PID" || status=$?
	RUN_PID=""
	SERVER_PID=""
	check "gomoku-server exited with status 0 (buildah run returned $status)" \
		test "$status" -eq 0
}

# Runs play.mjs (from tests/, for its node_modules) with the arguments
# given, adding its PASS and FAIL lines to the counts; a run that fails
# without a FAIL line counts as one failure.
play()
{
	local out status=0 passes fails
	out=$LOG_DIR/play-$1.log
	(cd "$TESTS_DIR" && node container/play.mjs "$@") 2>&1 | tee "$out" ||
		status=${PIPESTATUS[0]}
	passes=$(grep -c '^PASS ' "$out" || true)
	fails=$(grep -c '^FAIL ' "$out" || true)
	if [ "$status" -ne 0 ] && [ "$fails" -eq 0 ]; then
		fail "node container/play.mjs $* exited $status"
	fi
	PASSED=$((PASSED + passes))
	FAILED=$((FAILED + fails))
	return "$status"
}

port=${GOMOKU_CONTAINER_PORT:-$(free_port)}
# The command: the image's entrypoint and cmd, as it says them.
mapfile -t run_argv < <(node -e '
	const [ep, cmd] = process.argv.slice(1).map((s) => JSON.parse(s) || []);
	for (const arg of [...ep, ...cmd]) console.log(arg);' "$entrypoint" "$image_cmd")

# ---------------------------------------------------------------------------
header "run: the image's entrypoint as the image's user"

start_server 1
server_uid=$(awk '/^Uid:/ { print $2 }' "/proc/$SERVER_PID/status")
check "the server process runs as uid $server_uid, the image's user, not root" \
	test "$server_uid" = "$image_uid" -a "$server_uid" != 0

# ---------------------------------------------------------------------------
header "play: /healthz, the web client and a whole game through the image"

game_file=$LOG_DIR/game.json
if ! play game "$port" "$game_file"; then
	echo "--- server log so far:"
	cat "$LOG_DIR/server-1.log"
fi
db_path=$(sed -n 's/^GOMOKU_DB=//p' <<<"$image_env")
check "the games journal is written at GOMOKU_DB ($db_path) by the image's user" \
	in_image test -s "$db_path" -a -O "$db_path"

# ---------------------------------------------------------------------------
header "health check: the image's HEALTHCHECK command, inside the image"

health_argv=$(node -e 'const t = JSON.parse(process.argv[1]);
	console.log(t.slice(1).join(" "))' "$healthcheck")
# shellcheck disable=SC2086 # the command's words
check "'$health_argv' exits 0 while the server is up" \
	in_image env GOMOKU_PORT="$port" $health_argv
# Compose sets GOMOKU_HOST=0.0.0.0: the probe must still reach the server.
# shellcheck disable=SC2086
check "'$health_argv' exits 0 with GOMOKU_HOST=0.0.0.0 (as compose sets it)" \
	in_image env GOMOKU_PORT="$port" GOMOKU_HOST=0.0.0.0 $health_argv
closed_port=$(free_port)
# shellcheck disable=SC2086
check "'$health_argv' exits 1 when nothing listens (port $closed_port)" \
	fails in_image env GOMOKU_PORT="$closed_port" $health_argv

# ---------------------------------------------------------------------------
header "stop: SIGTERM closes every client with 1001, exit 0 within 2 s"

play stop "$port" "$SERVER_PID" || true
expect_exit_zero
echo "--- server log:"
cat "$LOG_DIR/server-1.log"

# ---------------------------------------------------------------------------
header "restart: the finished game is still in the journal"

start_server 2
if [ -s "$game_file" ]; then
	play replay "$port" "$game_file" || true
else
	fail "no game was recorded by the play step to look up after the restart"
fi
kill -TERM "$SERVER_PID"
expect_exit_zero
echo "--- server log:"
cat "$LOG_DIR/server-2.log"

# ---------------------------------------------------------------------------
header "site: docker/site.Dockerfile's redis and balancer, three instances"

# Builds target $1 of docker/site.Dockerfile as localhost/gomoku-$1.
build_site_image()
{
	local tag=localhost/gomoku-$1:container-test old new t0=$EPOCHREALTIME
	old=$(podman image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)
	if ! podman build --isolation=chroot --pull=never --format docker \
		--target "$1" -f "$REPO/docker/site.Dockerfile" -t "$tag" "$REPO" \
		>"$LOG_DIR/build-$1.log" 2>&1; then
		tail -n 40 "$LOG_DIR/build-$1.log"
		abort "podman build --target $1 -f docker/site.Dockerfile failed"
	fi
	pass "docker/site.Dockerfile, target $1, builds ($(seconds_since "$t0") s)"
	new=$(podman image inspect --format '{{.Id}}' "$tag")
	if [ -n "$old" ] && [ "$old" != "$new" ]; then
		podman rmi "$old" >/dev/null 2>&1 || true
	fi
}

# The JSON list $2 of image $1's config (Entrypoint, ...), one word a line.
image_words()
{
	node -e 'for (const w of JSON.parse(process.argv[1]) || []) console.log(w)' \
		"$(podman image inspect --format "{{json .Config.$2}}" "$1")"
}

# Starts `buildah run` of container $1 as user $2 with the rest as the
# command, output to $LOG_DIR/site-$3.log ($3: a name); the process is
# added to SITE_PIDS.
site_run()
{
	local ctr=$1 user=$2 name=$3
	shift 3
	buildah run --isolation chroot --user "$user" "$ctr" -- "$@" \
		>"$LOG_DIR/site-$name.log" 2>&1 &
	SITE_PIDS+=("$!")
}


# GET http://127.0.0.1:$1$2: the body, or nothing.
http_body()
{
	curl -s --max-time 5 "http://127.0.0.1:$1$2" || true
}

# Waits up to $3 s for GET :$1$2 to answer 200.
wait_http()
{
	local _
	for _ in $(seq 1 $(($3 * 10))); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 \
			"http://127.0.0.1:$1$2")" = 200 ] && return 0
		sleep 0.1
	done
	return 1
}

build_site_image redis
build_site_image balancer
REDIS_IMAGE=localhost/gomoku-redis:container-test
BALANCER_IMAGE=localhost/gomoku-balancer:container-test
for image in "$REDIS_IMAGE" "$BALANCER_IMAGE"; do
	user=$(podman image inspect --format '{{.Config.User}}' "$image")
	check "$image runs as a non-root user (USER \"$user\")" \
		test -n "$user" -a "$user" != root -a "$user" != 0
done
SCALE=$REPO/docker/compose.scale.yml

# A service's list or map of compose.scale.yml, one item a line, each
# ${VAR:-default} as its default: service $1, key $2 (command,
# environment).
compose_items()
{
	awk -v service="  $1:" -v key="    $2:" '
		$0 == service { in_service = 1; next }
		in_service && /^  [a-z]/ { exit }
		in_service && $0 == key { in_key = 1; next }
		in_key && /^ *#/ { next }
		in_key && /^      / { sub(/^      (- )?/, ""); print; next }
		in_key { exit }' "$SCALE" |
		sed -E 's/\$\{[A-Z_]+:-([^}]*)\}/\1/g; s/"//g'
}

redis_port=$(free_port)
mapfile -t redis_flags < <(compose_items redis command)
[ "${#redis_flags[@]}" -gt 4 ] || abort "no command for redis in $SCALE"
# On the host network: loopback, and a free port.
for i in "${!redis_flags[@]}"; do
	[ "${redis_flags[$i]}" = --bind ] && redis_flags[$((i + 1))]=127.0.0.1
done
check "compose.scale.yml runs Redis with AOF (${redis_flags[*]})" \
	grep -q -- '--appendonly yes' <<<"${redis_flags[*]}"
RCTR=$(buildah from --pull-never "$REDIS_IMAGE") || abort "buildah from $REDIS_IMAGE failed"
SITE_CTRS+=("$RCTR")
mapfile -t redis_entry < <(image_words "$REDIS_IMAGE" Entrypoint)
redis_user=$(podman image inspect --format '{{.Config.User}}' "$REDIS_IMAGE")
site_run "$RCTR" "$redis_user" redis "${redis_entry[@]}" "${redis_flags[@]}" \
	--port "$redis_port"
redis_run=${SITE_PIDS[-1]}
for _ in $(seq 1 100); do
	[ "$(redis-cli -p "$redis_port" ping 2>/dev/null)" = PONG ] && break
	sleep 0.1
done
check "Redis from $REDIS_IMAGE answers PING on port $redis_port" \
	test "$(redis-cli -p "$redis_port" ping 2>/dev/null)" = PONG
redis_pid=$(descendant "$redis_run" redis-server) ||
	{ cat "$LOG_DIR/site-redis.log"; abort "redis-server did not start from $REDIS_IMAGE"; }

# The instances: the server's image with the compose file's environment,
# Redis and the port changed for the host network.
mapfile -t instance_env < <(compose_items gomoku environment |
	sed -E 's/^([A-Z_]+): */\1=/' | grep -vE '^GOMOKU_(REDIS|HOST|PORT)=')
# True when environment $1 trusts the proxy and sets a lease.
proxy_and_lease()
{
	grep -q 'GOMOKU_TRUST_PROXY=yes' <<<"$1" &&
		grep -q 'GOMOKU_INSTANCE_LEASE=[0-9]' <<<"$1"
}
check "compose.scale.yml gives the instances GOMOKU_TRUST_PROXY=yes and a lease (${instance_env[*]})" \
	proxy_and_lease "${instance_env[*]}"
instance_ports=()
instance_pids=()
for n in 1 2 3; do
	ictr=$(buildah from --pull-never "$IMAGE") || abort "buildah from $IMAGE failed"
	SITE_CTRS+=("$ictr")
	iport=$(free_port)
	# env NAME=VALUE ... before the entrypoint: `buildah run --env` would
	# drop an empty value (GOMOKU_INSTANCE_ID: a random id).
	site_run "$ictr" "$image_user" "instance-$n" \
		/usr/bin/env "${instance_env[@]}" "GOMOKU_REDIS=redis://127.0.0.1:$redis_port/0" \
		GOMOKU_HOST=127.0.0.1 "GOMOKU_PORT=$iport" "${run_argv[@]}"
	instance_ports+=("$iport")
	instance_pids+=("${SITE_PIDS[-1]}")
done
for n in 0 1 2; do
	wait_http "${instance_ports[$n]}" /healthz 30 ||
		{ cat "$LOG_DIR/site-instance-$((n + 1)).log"; abort "instance $((n + 1)) of the site did not become healthy"; }
done
health=$(http_body "${instance_ports[0]}" /healthz)
echo "instance 1: $health"
check "the instances hold their lease on the site's Redis" \
	grep -q '"redis":"up".*"lease":"held"' <<<"$health"

# haproxy: the image's configuration (docker/haproxy.cfg) with Docker's
# DNS lookup replaced by the three instances, listening on a free port.
balancer_port=$(free_port)
BCTR=$(buildah from --pull-never "$BALANCER_IMAGE") || abort "buildah from $BALANCER_IMAGE failed"
SITE_CTRS+=("$BCTR")
buildah run --isolation chroot "$BCTR" -- cat /etc/haproxy/haproxy.cfg \
	>"$LOG_DIR/haproxy.shipped.cfg" 2>/dev/null
check "the balancer image holds docker/haproxy.cfg" \
	cmp -s "$LOG_DIR/haproxy.shipped.cfg" "$REPO/docker/haproxy.cfg"
awk -v ports="${instance_ports[*]}" -v listen="$balancer_port" '
	/^resolvers docker$/ { skip = 1; next }
	skip && /^$/ { skip = 0; next }
	skip { next }
	/^\tserver-template gomoku / {
		options = $0
		sub(/.*gomoku:8080 /, "", options)
		gsub(/ resolvers docker| init-addr none/, "", options)
		n = split(ports, port, " ")
		for (i = 1; i <= n; i++)
			printf "\tserver gomoku%d 127.0.0.1:%s %s\n", i, port[i], options
		next
	}
	/^\tbind :8080$/ { print "\tbind 127.0.0.1:" listen; next }
	{ print }' "$LOG_DIR/haproxy.shipped.cfg" >"$LOG_DIR/haproxy.cfg"
grep -q "server gomoku3 127.0.0.1:${instance_ports[2]} check" "$LOG_DIR/haproxy.cfg" ||
	abort "docker/haproxy.cfg no longer has the server-template line this test replaces"
balancer_user=$(podman image inspect --format '{{.Config.User}}' "$BALANCER_IMAGE")
buildah copy --chown "$balancer_user" "$BCTR" "$LOG_DIR/haproxy.cfg" \
	/etc/haproxy/haproxy.cfg >/dev/null || abort "buildah copy of haproxy.cfg failed"
mapfile -t balancer_entry < <(image_words "$BALANCER_IMAGE" Entrypoint)
site_run "$BCTR" "$balancer_user" balancer "${balancer_entry[@]}"
balancer_run=${SITE_PIDS[-1]}
wait_http "$balancer_port" /healthz 30 ||
	{ cat "$LOG_DIR/site-balancer.log"; abort "haproxy from $BALANCER_IMAGE did not serve /healthz"; }
pass "haproxy from $BALANCER_IMAGE serves /healthz on port $balancer_port"

site_game=$LOG_DIR/site-game.json
play site "$balancer_port" "$site_game" || true
across=0
for n in 0 1 2; do
	value=$(http_body "${instance_ports[$n]}" /metrics |
		awk '$1 == "gomoku_cluster_pairs_across_total" { print $2 }')
	across=$((across + ${value:-0}))
done
check "the two players of the game were on two instances (pairs across: $across)" \
	test "$across" -ge 1

# Stopped as compose stops a site: SIGTERM to each.
for n in 0 1 2; do
	pid=$(descendant "${instance_pids[$n]}" gomoku-server) && kill -TERM "$pid"
	status=0
	wait "${instance_pids[$n]}" || status=$?
	check "instance $((n + 1)) exits with status 0 after SIGTERM" test "$status" -eq 0
done
pid=$(descendant "$balancer_run" haproxy) && kill -TERM "$pid"
wait "$balancer_run" || true
kill -TERM "$redis_pid"
status=0
wait "$redis_run" || status=$?
check "Redis exits with status 0 after SIGTERM" test "$status" -eq 0
check "Redis wrote its AOF in /var/lib/redis" \
	buildah run --isolation chroot "$RCTR" -- sh -c 'ls /var/lib/redis/appendonlydir/*.aof'
SITE_PIDS=()

# ---------------------------------------------------------------------------
header "summary"
echo "image $IMAGE: $size_mb MB ($size_mib MiB); build $build_seconds s; whole test $(seconds_since "$STARTED") s"
echo "container: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
