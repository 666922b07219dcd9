# Bonken bot: slim Python, a non-root user, the SQLite database on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    BONKEN_DATABASE=/data/bonken.sqlite3

RUN useradd --create-home --uid 1000 bonken \
    && mkdir /data && chown bonken:bonken /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install .

USER bonken
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
