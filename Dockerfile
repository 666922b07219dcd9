# Bonken bot: slim Python, a non-root user, the SQLite database on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    BONKEN_DATABASE=/data/bonken.sqlite3

RUN useradd --create-home --uid 1000 bonken \
    && mkdir /data && chown bonken:bonken /data

WORKDIR /app

# The dependencies get a layer of their own, read from pyproject.toml alone, so a change
# to the code (or the README) reuses it instead of downloading them again. setuptools is
# the build backend, installed here so the code layer below needs no download at all.
COPY pyproject.toml ./
RUN python -c "import tomllib; project = tomllib.load(open('pyproject.toml', 'rb'))['project']; print('\n'.join(project['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt "setuptools>=77" \
    && rm /tmp/requirements.txt

COPY README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-deps --no-build-isolation . && rm -rf build *.egg-info

USER bonken
VOLUME ["/data"]
# Exec form: Python is PID 1 and gets docker stop's SIGTERM itself; the bot closes its
# tables, Discord and the database, and exits 0 well inside docker stop's 10 s.
CMD ["python", "-m", "bot"]
