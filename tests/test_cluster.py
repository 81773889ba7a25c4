"""``--cluster ADDRESS``: verify and generate on a Dask distributed cluster
(gridsolve/verify/cluster.py), here a local cluster of two worker processes on the loopback
address: the same results as the local run, every item once, and a worker lost mid-task
replaced without losing or repeating what it had sent."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow      # a cluster starts in seconds: the slow tier (CI runs it)

from gridsolve.generate.generate import generate  # noqa: E402
from gridsolve.generate.request import Request  # noqa: E402
from gridsolve.verify.cluster import run_tasks_on_cluster, workers_of  # noqa: E402
from gridsolve.workers import DONE  # noqa: E402
from gridsolve.verify.verify import verify_paths  # noqa: E402

from conftest import ROOT  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    # (imported here, not at the top: the quick tier collects this module without paying dask's import)
    distributed = pytest.importorskip("distributed", reason="the cluster extra: pip install 'gridsolve[cluster]'")
    import cloudpickle
    cloudpickle.register_pickle_by_value(sys.modules[__name__])     # the workers run this module's tasks
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as local:
        yield local.scheduler_address


def test_verify_on_the_cluster_gives_the_local_results(cluster):
    paths = [ROOT / "boards" / "generated"]
    local = verify_paths(paths)
    remote = verify_paths(paths, cluster=cluster)
    assert [(c.location, c.key, c.status, c.measured) for c in remote.checks] == \
        [(c.location, c.key, c.status, c.measured) for c in local.checks]
    assert remote.checks and not remote.failed and workers_of(cluster) == 2


def _dies_once(task):
    """Yields task's numbers; the first attempt's worker dies after three of them."""
    marker, count = task
    for k in range(count):
        if k == 3 and not Path(marker).exists():
            Path(marker).write_text("died")
            os._exit(1)                 # the worker process is lost mid-task
        yield k


def test_a_worker_lost_mid_task_is_replaced_and_no_item_is_lost_or_repeated(cluster, tmp_path):
    seen: list = []
    outcomes = run_tasks_on_cluster(cluster, [(str(tmp_path / "marker"), 8), (str(tmp_path / "other"), 0)],
                                    _dies_once, 120, lambda i, item: seen.append((i, item)))
    assert (tmp_path / "marker").exists()            # the first attempt did die
    assert [o.status for o in outcomes] == [DONE, DONE]
    assert seen == [(0, k) for k in range(8)]


def test_generate_on_the_cluster_writes_verified_levels(cluster, tmp_path):
    request = Request(rules="mummy-maze-2007-prose", size=(5, 5), count=2, seed=3, out=tmp_path, timeout=120,
                      cluster=cluster)
    report = generate(request)
    assert report.error is None and len(report.boards) == 2
    assert not verify_paths([tmp_path]).failed


def test_generate_climbs_classic_levels_on_the_cluster(cluster, tmp_path):
    request = Request(rules="mummy-maze-classic", size=(5, 5), count=2, seed=3, out=tmp_path, timeout=120,
                      cluster=cluster)
    report = generate(request)
    assert report.error is None and len(report.boards) == 2 and report.method == "climb"
    checked = verify_paths([tmp_path])
    assert checked.checks and not checked.failed and not checked.invalid
