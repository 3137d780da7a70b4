# Queyou 雀友: one image for every process (web, worker, clock, release); compose.yaml picks the
# process with the command (`python -m config.launcher web|worker|clock|release`), docs/deploy.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_SETTINGS_MODULE=config.settings \
    HOST=0.0.0.0 \
    PORT=8000

RUN groupadd --system queyou \
    && useradd --system --gid queyou --home-dir /app --no-create-home --shell /usr/sbin/nologin queyou

WORKDIR /app

# The runtime requirements only (no test or lint tools), installed at build: nothing is installed
# when a container starts.
COPY requirements.txt ./
RUN pip install -r requirements.txt

COPY . .

# Catalogs and static files at build, so that every container of this image serves the same
# files; the settings need a key to load, this one serves nothing and is not kept.
RUN DEBUG=0 SECRET_KEY=build-only-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz \
        python -m config.launcher prepare \
    && DEBUG=0 SECRET_KEY=build-only-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz \
        python manage.py collectstatic --noinput -v 0 \
    && chown -R queyou:queyou /app/var

USER queyou
EXPOSE 8000
CMD ["python", "-m", "config.launcher", "web"]
