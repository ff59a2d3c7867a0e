#!/usr/bin/env bash
# Run the Docker image and compose.yaml for real where Docker Hub cannot be reached (opt-in; CI does not run it).
#
#   scripts/docker_standin.sh bases    build stand-ins for the base images from Debian's mirror alone:
#                                      the Dockerfile's python:3.11.N-slim (Debian 12's python 3.11 in a venv
#                                      on PATH) and compose.yaml's postgres:15 (Debian 12's PostgreSQL 15 with an
#                                      entry point that does what the official one does with POSTGRES_USER,
#                                      POSTGRES_PASSWORD and POSTGRES_DB), tagged with those names
#   scripts/docker_standin.sh verify   with those images present (stand-ins or the real ones): build the bot's
#                                      image and run the README's recipes against the project's fake Discord
#                                      (tests/e2e/fakediscord/container.py), each step checked; see below
#   scripts/docker_standin.sh remove   remove the stand-ins, so the real images are pulled again
#
# Needs root, a running Docker daemon, Compose v2 (`docker compose`) and, for `bases`, debootstrap. A stand-in
# is labelled org.skatbot.standin; `bases` never replaces an image of the same name that is not one. While the
# stand-ins are there, `docker build` and `docker compose up` use them instead of pulling the real images.
#
# `verify` works on a copy of the project (your .env, containers and volumes are not touched; it builds the
# image skatbot from this tree), as the compose project skatbot-standin, and removes what it made at the end.
# It checks: `docker compose config`; `docker run --env-file .env -v DATA:/data skatbot` (the README's one
# process on SQLite, pointed at the fake) gets healthy, plays, stops with exit code 0 on `docker stop`; the
# README's backup; the README's move of that volume into compose's PostgreSQL (up -d --wait db, docker run ...
# skatbot.storage copy) copies and leaves the SQLite file as it was; `docker compose up -d` starts shards 0 and
# 1 on it, which resume the SQLite tables and get healthy (/healthz); `docker compose down && up -d` keeps the
# data and leaves no anonymous volume; the storage tool checks the data from a bot's container; a token the
# fake rejects and an unreachable Discord end a bot with exit code 2 and a message. Ports 9100 and 9101 on
# 127.0.0.1 must be free (compose.yaml publishes them).
set -Eeuo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LABEL=org.skatbot.standin
DEBIAN=skatbot-standin/debian:bookworm
PROJECT=skatbot-standin
FAKE_NET=skatbot-standin-fake
FAKE=skatbot-standin-fakediscord
SQLITE=skatbot-standin-sqlite
DATA=skatbot-standin-data

python_image() { awk 'toupper($1) == "FROM" { image = $2 } END { print image }' "$ROOT/Dockerfile"; }
postgres_image() { grep -Eo 'image: *postgres:[^ ]+' "$ROOT/compose.yaml" | head -n 1 | sed 's/image: *//'; }
say() { printf 'standin: %s\n' "$*"; }
fail() { printf 'standin: FAILED: %s\n' "$*" >&2; exit 1; }

is_standin() {  # an image without labels has none at all (the template then prints "<no value>")
    local label
    label="$(docker image inspect -f "{{ if .Config.Labels }}{{ index .Config.Labels \"$LABEL\" }}{{ end }}" "$1" 2>/dev/null)"
    [ -n "$label" ] && [ "$label" != '<no value>' ]
}

may_replace() {
    if docker image inspect "$1" >/dev/null 2>&1 && ! is_standin "$1"; then
        fail "$1 exists and is not a stand-in: remove it yourself if you mean to replace it"
    fi
}

build_from() {  # build_from TAG DIR: a stand-in image from DIR's Dockerfile, with the host's extra CAs
    local dir="$2"
    mkdir -p "$dir/ca"
    # a TLS-inspecting proxy's certificate authority, where the host trusts one (pip in the build needs it)
    cp /usr/local/share/ca-certificates/*.crt "$dir/ca/" 2>/dev/null || true
    docker build -q --label "$LABEL=$1" -t "$1" "$dir" >/dev/null
}

bases() {
    local py pg work
    py="$(python_image)" pg="$(postgres_image)"
    may_replace "$py"; may_replace "$pg"
    command -v debootstrap >/dev/null || fail "debootstrap is not installed (apt-get install debootstrap)"
    work="$(mktemp -d)"
    WORK="$work"
    trap 'rm -rf "$WORK"' EXIT
    say "debootstrap bookworm (minbase) into $work/rootfs"
    debootstrap --variant=minbase bookworm "$work/rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" \
        || { tail -n 20 "$work/debootstrap.log"; fail "debootstrap"; }
    cat >"$work/rootfs/etc/apt/sources.list" <<'EOF'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
    rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/*
    tar -C "$work/rootfs" -c . | docker import -c 'CMD ["bash"]' \
        -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$DEBIAN" >/dev/null

    mkdir -p "$work/python"
    cat >"$work/python/Dockerfile" <<EOF
FROM $DEBIAN
COPY ca/ /usr/local/share/ca-certificates/
RUN apt-get update \\
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \\
        python3 python3-venv ca-certificates netbase tzdata \\
    && rm -rf /var/lib/apt/lists/* \\
    && update-ca-certificates \\
    && python3 -m venv /usr/local/python
# python and pip as the official image has them on PATH; pip trusts the system's certificates (and so the CAs above)
ENV PATH=/usr/local/python/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \\
    LANG=C.UTF-8 \\
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt
CMD ["python3"]
EOF
    say "building $py (stand-in: Debian 12's python 3.11)"
    build_from "$py" "$work/python"

    mkdir -p "$work/postgres"
    cat >"$work/postgres/docker-entrypoint.sh" <<'EOF'
#!/usr/bin/env bash
# Stand-in for the postgres image's entry point, as far as compose.yaml relies on it. On an empty $PGDATA:
# initdb with POSTGRES_USER (default postgres) as superuser and POSTGRES_PASSWORD (required) as its password,
# a temporary server on the Unix socket alone creates POSTGRES_DB (default: the user's name), password logins
# (scram-sha-256) from every host; then postgres itself, listening on every address. As root it hands the data
# folder to postgres and steps down with gosu.
set -Eeo pipefail
wants_help() { local arg; for arg; do case "$arg" in -'?'|--help|--describe-config|-V|--version) return 0;; esac; done; return 1; }
if [ "${1:0:1}" = '-' ]; then set -- postgres "$@"; fi
if [ "$1" = 'postgres' ] && ! wants_help "$@"; then
    : "${POSTGRES_USER:=postgres}"
    : "${POSTGRES_DB:=$POSTGRES_USER}"
    mkdir -p "$PGDATA" /var/run/postgresql
    chmod 700 "$PGDATA"
    if [ "$(id -u)" = '0' ]; then
        find "$PGDATA" /var/run/postgresql \! -user postgres -exec chown postgres '{}' +
        exec gosu postgres "$BASH_SOURCE" "$@"
    fi
    if [ -s "$PGDATA/PG_VERSION" ]; then
        echo 'PostgreSQL Database directory appears to contain a database; Skipping initialization'
    else
        if [ -z "${POSTGRES_PASSWORD:-}" ]; then
            echo 'Error: Database is uninitialized and superuser password is not specified (POSTGRES_PASSWORD).' >&2
            exit 1
        fi
        initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD")
        printf '\nhost all all all scram-sha-256\n' >>"$PGDATA/pg_hba.conf"
        pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p 5432" -w start
        if [ "$POSTGRES_DB" != 'postgres' ]; then
            psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --no-psqlrc --dbname postgres \
                --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";'
        fi
        pg_ctl -D "$PGDATA" -m fast -w stop
        echo 'PostgreSQL init process complete; ready for start up.'
    fi
    unset "${!POSTGRES_@}"
fi
exec "$@"
EOF
    chmod +x "$work/postgres/docker-entrypoint.sh"
    cat >"$work/postgres/Dockerfile" <<EOF
FROM $DEBIAN
COPY ca/ /usr/local/share/ca-certificates/
RUN groupadd -r postgres --gid=999 \\
    && useradd -r -g postgres --uid=999 --home-dir=/var/lib/postgresql --shell=/bin/bash postgres \\
    && install --directory --owner postgres --group postgres --mode 1777 /var/lib/postgresql \\
    && apt-get update \\
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \\
        ca-certificates gosu locales postgresql-common \\
    && sed -ri 's/#(create_main_cluster) .*\$/\\1 = false/' /etc/postgresql-common/createcluster.conf \\
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \\
    && rm -rf /var/lib/apt/lists/* \\
    && echo 'en_US.UTF-8 UTF-8' >>/etc/locale.gen && locale-gen \\
    && sed -ri "s!^#?(listen_addresses)\\s*=\\s*\\S+.*!\\1 = '*'!" /usr/share/postgresql/15/postgresql.conf.sample \\
    && install --directory --owner postgres --group postgres --mode 3777 /var/run/postgresql \\
    && install --directory --owner postgres --group postgres --mode 1777 /var/lib/postgresql/data
ENV LANG=en_US.utf8 PG_MAJOR=15 PGDATA=/var/lib/postgresql/data \\
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/lib/postgresql/15/bin
COPY docker-entrypoint.sh /usr/local/bin/
VOLUME /var/lib/postgresql/data
ENTRYPOINT ["docker-entrypoint.sh"]
STOPSIGNAL SIGINT
EXPOSE 5432
CMD ["postgres"]
EOF
    say "building $pg (stand-in: Debian 12's PostgreSQL 15)"
    build_from "$pg" "$work/postgres"
    docker run --rm "$py" python --version
    docker run --rm "$pg" postgres --version
    say "done: $py and $pg are stand-ins until 'scripts/docker_standin.sh remove'"
}

remove() {
    local image
    for image in "$(python_image)" "$(postgres_image)" "$DEBIAN"; do
        if is_standin "$image" || [ "$image" = "$DEBIAN" ]; then
            docker image rm "$image" >/dev/null 2>&1 && say "removed $image" || true
        fi
    done
}

# --- verify -----------------------------------------------------------------------------------------------

wait_log() {  # wait_log CONTAINER TEXT SECONDS: until the container's output has TEXT
    local deadline=$((SECONDS + $3))
    until docker logs "$1" 2>&1 | grep -qF -- "$2"; do
        if docker logs "$FAKE" 2>&1 | grep -q 'FAKE FAILED'; then docker logs "$FAKE" >&2; fail "the fake Discord gave up"; fi
        [ "$SECONDS" -lt "$deadline" ] || { docker logs "$1" 2>&1 | tail -n 30 >&2; fail "$1 did not say '$2' in $3 s"; }
        sleep 1
    done
}

wait_healthy() {  # wait_healthy CONTAINER SECONDS
    local deadline=$((SECONDS + $2)) state=""
    while [ "$state" != healthy ]; do
        [ "$SECONDS" -lt "$deadline" ] || fail "$1 is $state, not healthy, after $2 s"
        sleep 2
        state="$(docker inspect -f '{{.State.Health.Status}}' "$1")"
    done
    say "$1 is healthy"
}

verify_cleanup() {
    set +e
    (cd "$WORK" && docker compose -p "$PROJECT" -f compose.yaml -f fake.yaml down -v --remove-orphans) >/dev/null 2>&1
    docker rm -f -v "$SQLITE" "$FAKE" >/dev/null 2>&1
    docker volume rm "$DATA" >/dev/null 2>&1
    docker network rm "$FAKE_NET" >/dev/null 2>&1
    rm -rf "$WORK"
}

verify() {
    local compose rows_before rows_after sum_before sum_after url output rc dangling
    docker info >/dev/null 2>&1 || fail "no Docker daemon answers"
    docker compose version >/dev/null 2>&1 || fail "no Compose v2 (docker compose)"
    docker image inspect "$(python_image)" "$(postgres_image)" >/dev/null 2>&1 \
        || fail "$(python_image) and $(postgres_image) must be present (pulled, or 'scripts/docker_standin.sh bases')"
    WORK="$(mktemp -d)"
    trap verify_cleanup EXIT
    tar -C "$ROOT" --exclude=./.git --exclude=./.venv --exclude=./.env -c . | tar -C "$WORK" -x
    cd "$WORK"
    cp .env.example .env
    sed -i 's/^DISCORD_TOKEN=.*/DISCORD_TOKEN=fake-bot-token/' .env  # the fake's token
    cat >fake.yaml <<EOF
# The bots talk to the fake Discord (launch_bot points discord.py at it), on its network.
x-fake: &fake
  command: ["python", "-m", "tests.e2e.fakediscord.launch_bot", "bot.py"]
  environment:
    FAKE_DISCORD_REST: http://fakediscord:8080/api/v10
    FAKE_DISCORD_GATEWAY: ws://fakediscord:8080/gateway
  volumes: ["$WORK/tests:/app/tests:ro"]
  networks: [default, fake]
services:
  shard-0: *fake
  shard-1: *fake
networks:
  fake:
    external: true
    name: $FAKE_NET
EOF
    compose=(docker compose -p "$PROJECT" -f compose.yaml -f fake.yaml)
    docker compose -p "$PROJECT" config -q && say "docker compose config: valid"
    docker compose -p "$PROJECT" build >/dev/null && say "built the image skatbot"

    docker network create "$FAKE_NET" >/dev/null
    docker run -d --name "$FAKE" --network "$FAKE_NET" --network-alias fakediscord --no-healthcheck \
        -e PYTHONPATH=/app -v "$WORK/tests:/app/tests:ro" skatbot python -m tests.e2e.fakediscord.container >/dev/null

    say "one process on SQLite: docker run --env-file .env -v $DATA:/data skatbot (on the fake)"
    docker run -d --name "$SQLITE" --env-file .env -v "$DATA:/data" --network "$FAKE_NET" \
        -v "$WORK/tests:/app/tests:ro" -e FAKE_DISCORD_REST=http://fakediscord:8080/api/v10 \
        -e FAKE_DISCORD_GATEWAY=ws://fakediscord:8080/gateway \
        skatbot python -m tests.e2e.fakediscord.launch_bot bot.py >/dev/null
    wait_log "$FAKE" "tables started" 180
    docker logs "$FAKE" 2>&1 | sed 's/^/  /'
    wait_healthy "$SQLITE" 120
    docker stop "$SQLITE" >/dev/null
    rc="$(docker inspect -f '{{.State.ExitCode}}' "$SQLITE")"
    [ "$rc" = 0 ] || fail "docker stop: the bot exited with $rc, not 0"
    say "docker stop: exit code 0"
    docker rm -v "$SQLITE" >/dev/null
    docker run --rm -v "$DATA:/data" skatbot python -m skatbot.storage backup /data/backup.sqlite3 | sed 's/^/  /'
    docker run --rm -v "$DATA:/data" skatbot python -m skatbot.storage check --database /data/backup.sqlite3 \
        2>&1 | sed 's/^/  /'
    docker run --rm -v "$DATA:/data" skatbot rm /data/backup.sqlite3
    say "the README's backup: written and checked"

    say "the README's move into compose's PostgreSQL"
    sum_before="$(docker run --rm -v "$DATA:/data" skatbot sha256sum /data/skatbot.sqlite3)"
    docker compose -p "$PROJECT" up -d --wait db >/dev/null 2>&1 || fail "docker compose up -d --wait db"
    url="postgresql://skatbot:skatbot@db:5432/skatbot"
    docker run --rm --network "${PROJECT}_default" -v "$DATA:/data" skatbot \
        python -m skatbot.storage copy /data/skatbot.sqlite3 "$url" | sed 's/^/  /'
    sum_after="$(docker run --rm -v "$DATA:/data" skatbot sha256sum /data/skatbot.sqlite3)"
    [ "$sum_before" = "$sum_after" ] || fail "the copy changed its source"
    say "copied; the SQLite file is unchanged"

    say "docker compose up -d: shards 0 and 1 on PostgreSQL"
    "${compose[@]}" up -d >/dev/null 2>&1 || fail "docker compose up -d"
    wait_log "$FAKE" " resumed" 180
    docker logs "$FAKE" 2>&1 | grep -F -e 'back' -e 'after the restart' | sed 's/^/  /'
    wait_healthy "${PROJECT}-shard-0-1" 150
    wait_healthy "${PROJECT}-shard-1-1" 60
    curl -fsS 127.0.0.1:9100/healthz >/dev/null && curl -fsS 127.0.0.1:9101/healthz >/dev/null \
        && say "/healthz answers 200 on 127.0.0.1:9100 and 9101"

    dangling="$(docker volume ls -qf dangling=true | wc -l)"
    rows_before="$("${compose[@]}" exec -T db psql -U skatbot -d skatbot -Atc 'SELECT count(*) FROM tables')"
    "${compose[@]}" down >/dev/null 2>&1
    "${compose[@]}" up -d >/dev/null 2>&1
    rows_after="$("${compose[@]}" exec -T db psql -U skatbot -d skatbot -Atc 'SELECT count(*) FROM tables')"
    [ "$rows_before" = "$rows_after" ] && [ "$rows_before" -gt 0 ] \
        || fail "docker compose down && up -d: $rows_before tables before, $rows_after after"
    say "docker compose down && up -d: the $rows_after tables are still there"
    wait_healthy "${PROJECT}-shard-0-1" 150
    wait_healthy "${PROJECT}-shard-1-1" 60
    "${compose[@]}" exec -T shard-0 python -m skatbot.storage check 2>&1 | sed 's/^/  /'
    [ "$(docker volume ls -qf dangling=true | wc -l)" = "$dangling" ] \
        || fail "docker compose down && up -d left anonymous volumes behind"
    say "storage check on PostgreSQL: ok; no anonymous volume left behind"

    for case in "DISCORD_TOKEN=not-the-token:rejected the token" \
                "FAKE_DISCORD_REST=http://fakediscord:9/api/v10:cannot reach Discord"; do
        set +e
        output="$("${compose[@]}" run --rm --no-deps -T -e SKATBOT_METRICS_PORT= -e "${case%:*}" shard-1 2>&1)"
        rc=$?
        set -e
        [ "$rc" = 2 ] && grep -qF "${case##*:}" <<<"$output" \
            || { tail -n 5 <<<"$output" >&2; fail "${case%:*}: exit code $rc"; }
        say "${case%:*}: exit code 2, $(grep -F "${case##*:}" <<<"$output" | head -n 1)"
    done
    say "verified"
}

case "${1:-}" in
    bases) bases ;;
    verify) verify ;;
    remove) remove ;;
    *) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
