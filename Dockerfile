# skatbot in a container: docker build -t skatbot . && docker run --env-file .env -v skatbot-data:/data skatbot
FROM python:3.11-slim

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
ENV SKATBOT_DATABASE=/data/skatbot.sqlite3 \
    NUMBA_CACHE_DIR=/home/skatbot/numba-cache
# Compile the AI's searches once at build time, into the user's cache (skatbot/ai/solver_core.py, ramsch_core.py).
RUN python -c "from skatbot.ai import ramsch_search, solver; solver.warm_up(); ramsch_search.warm_up()"

VOLUME /data
# The same program ./run starts; the README's "Running with Docker" names this start command.
CMD ["python", "bot.py"]
