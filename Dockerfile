# Bonken bot: slim Python, a non-root user, the SQLite database on a volume.
#
# The package is built as a wheel in the full Python image first: its compiled parts (the
# playout kernel and the hard player's loops: setup.py) need Cython and a C compiler,
# which the slim image lacks. Both images are the same Python on the same Debian (the same C library),
# so the slim image below installs that wheel as it is.
FROM python:3.11 AS wheel

ENV PIP_NO_CACHE_DIR=1
WORKDIR /src
# The build tools get a layer of their own (pyproject.toml's build-system requirements),
# so a change to the code reuses it.
RUN pip install "setuptools>=77" "Cython>=3.0"
COPY pyproject.toml setup.py README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip wheel --no-deps --no-build-isolation --wheel-dir /wheel .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    BONKEN_DATABASE=/data/bonken.sqlite3

RUN useradd --create-home --uid 1000 bonken \
    && mkdir /data && chown bonken:bonken /data

WORKDIR /app

# The dependencies get a layer of their own, read from pyproject.toml alone, so a change
# to the code (or the README) reuses it instead of downloading them again.
COPY pyproject.toml ./
RUN python -c "import tomllib; project = tomllib.load(open('pyproject.toml', 'rb'))['project']; print('\n'.join(project['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The package from the wheel built above; the image is refused if its kernel was not
# compiled (the bot would still run, on the slower pure-Python kernel).
COPY --from=wheel /wheel /tmp/wheel
RUN pip install --no-deps /tmp/wheel/*.whl && rm -rf /tmp/wheel \
    && python -c "from bot.engine.fast import COMPILED; assert COMPILED, 'kernel not compiled'"

USER bonken
VOLUME ["/data"]
# Exec form: Python is PID 1 and gets docker stop's SIGTERM itself; the bot closes its
# tables, Discord and the database, and exits 0 well inside docker stop's 10 s.
CMD ["python", "-m", "bot"]
