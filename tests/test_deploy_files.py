"""The Dockerfile and docker-compose.yml agree with docs/deploy.md (issue 34, item 6): the image's
default database is a path its unprivileged user can write, and the services the docs describe are
the ones compose runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_images_default_database_is_in_a_folder_its_user_owns() -> None:
    docker = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    user = re.search(r"^USER (\w+)$", docker, re.M)
    path = re.search(r"^ENV DATABASE_PATH=(\S+)$", docker, re.M)
    assert user and path, "the image names its user and its database path"
    folder = str(Path(path.group(1)).parent)
    assert re.search(rf"mkdir -p {re.escape(folder)}\b", docker) and re.search(
        rf"chown {user.group(1)} {re.escape(folder)}\b", docker
    ), f"{folder} is made and given to {user.group(1)}"
    assert f'VOLUME ["{folder}"]' in docker
    assert docker.index("ENV DATABASE_PATH") < docker.index(f"USER {user.group(1)}")
    assert path.group(1) in (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")


def test_compose_runs_the_services_the_docs_describe() -> None:
    compose = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    docs = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    block = compose.split("\nservices:\n", 1)[1].split("\nvolumes:\n", 1)[0]
    services = re.findall(r"^  ([a-z0-9-]+):$", block, re.M)
    described = re.findall(r"^\| `([a-z0-9-]+)` \|", docs.split("## docker compose", 1)[1], re.M)
    assert services and set(services) == set(described), (services, described)
    shards = [s for s in services if s.startswith("bot-")]
    assert re.search(rf'SHARD_COUNT: "{len(shards)}"', compose)
    assert f"of {len(shards)}" in docs and "postgres:15" in compose and "PostgreSQL 15 (`postgres:15`)" in docs
    assert "DATABASE_URL: postgresql://" in compose  # the bots use the compose database, not the image's file


def test_the_readme_states_the_python_range_pyproject_declares() -> None:
    declared = re.search(r'^requires-python = "(.+)"$', (ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.M)
    assert declared is not None
    assert f'`requires-python = "{declared.group(1)}"`' in (ROOT / "README.md").read_text(encoding="utf-8")
