# skatbot in a container: docker build -t skatbot . && docker run --env-file .env -v skatbot-data:/data skatbot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, so that code changes do not reinstall them.
COPY requirements.txt ./
RUN pip install -r requirements.txt

# A user without privileges owns only the data folder.
RUN useradd --create-home --uid 10001 skatbot \
    && mkdir /data \
    && chown skatbot:skatbot /data

COPY bot.py ./
COPY skatbot ./skatbot
COPY cogs ./cogs

USER skatbot
ENV SKATBOT_DATABASE=/data/skatbot.sqlite3
VOLUME /data
CMD ["python", "bot.py"]
