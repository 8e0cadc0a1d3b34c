# The bot's image: `docker compose up` (docker-compose.yml) builds it for its bot processes.
# Settings come from the environment (docker-compose.yml passes them); nothing secret is baked in
# (.dockerignore leaves .env and local databases out).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies and the packages (pip install . builds the wheel from these files).
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY db ./db
COPY bot ./bot
COPY cogs ./cogs
RUN pip install .

# /howto attaches docs/rulings/<game>.md, read from the bot's folder (/app) when DOCS_BASE_URL is unset.
COPY docs/rulings ./docs/rulings

# An unprivileged user, and the SQLite file's folder it owns: the image run on its own (without
# DATABASE_URL, which docker-compose.yml sets to its PostgreSQL server) keeps its database in
# /app/data, a volume (the working folder /app belongs to root: the default relative path could not
# be written there).
RUN useradd --system --uid 10001 --home-dir /app referee \
    && mkdir -p /app/data \
    && chown referee /app/data
ENV DATABASE_PATH=/app/data/wizard_referee.sqlite3
VOLUME ["/app/data"]
USER referee

# `python -m bot` runs the bot; `python -m bot db copy --from URL --to URL` and
# `python -m bot.ratings verify` run in the same image (docker compose run --rm bot-0 python -m ...).
CMD ["python", "-m", "bot"]
