# skatbot in a container: docker build -t skatbot . && docker run --env-file .env -v skatbot-data:/data skatbot
# PostgreSQL and two shard processes together: docker compose up -d (compose.yaml; see the README).
FROM python:3.11.14-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, so that code changes do not reinstall them.
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

# A user without privileges (numeric, so the host can resolve it) owns only the data folder.
RUN groupadd --gid 10001 skatbot \
    && useradd --uid 10001 --gid 10001 --create-home skatbot \
    && mkdir /data \
    && chown 10001:10001 /data

COPY bot.py ./
COPY skatbot ./skatbot
COPY cogs ./cogs

USER 10001:10001
# The data lives on the volume: SKATBOT_DATABASE, when relative (its default skatbot.sqlite3, or what an
# operator's .env names), is taken in SKATBOT_DATA_DIR. Metrics and /healthz on 9100, for the HEALTHCHECK below
# and a Prometheus scraper. An --env-file must not set these (.env.example leaves them out).
ENV SKATBOT_DATA_DIR=/data \
    SKATBOT_METRICS_PORT=9100 \
    SKATBOT_METRICS_HOST=0.0.0.0 \
    NUMBA_CACHE_DIR=/home/skatbot/numba-cache
# Compile the AI's searches once at build time, into the user's cache (skatbot/ai/solver_core.py, ramsch_core.py).
RUN python -c "from skatbot.ai import ramsch_search, solver; solver.warm_up(); ramsch_search.warm_up()"

VOLUME /data
EXPOSE 9100
# Healthy: every shard connected to the gateway and the database answering (GET /healthz, skatbot/health.py).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["python", "-m", "skatbot.healthcheck"]
# docker stop sends this; the bot closes cleanly on it (gives its tables' due steps back, closes the database).
STOPSIGNAL SIGTERM
# The same program ./run starts; the README's "Running with Docker" names this start command.
CMD ["python", "bot.py"]
