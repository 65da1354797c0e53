"""The Dask engine gives the rows of a local run, in the same order: on an in-process
``distributed.LocalCluster``, from paths and from ``file://`` URLs."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from revoke_audit import audit_paths
from revoke_audit.cli.commands import main
from revoke_audit.formats import Limits
from revoke_audit.engine.dask_engine import expand

distributed = pytest.importorskip("distributed")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            yield c


def test_the_dask_engine_gives_the_local_rows_in_order(client):
    """Every fixture (damaged files and archives included), batched into Dask tasks."""
    local = audit_paths(str(FIXTURES))
    dask = audit_paths(str(FIXTURES), engine="dask", client=client)
    assert len(local.boards) > 60
    assert local.boards.equals(dask.boards) and local.findings.equals(dask.findings)


def test_a_file_url_names_the_same_files_as_its_path(client):
    folder = FIXTURES / "mixed"
    assert list(expand([folder.as_uri()])) == list(expand([str(folder)]))
    by_url = audit_paths(folder.as_uri(), engine="dask", client=client)
    assert by_url.boards.equals(audit_paths(str(folder)).boards)


def test_a_url_needs_the_dask_engine(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["audit", "s3://bucket/boards.pbn"])
    assert r.exit_code == 2
    assert "s3://bucket/boards.pbn is a URL: URLs are read with --engine dask" in r.output


def test_scheduler_goes_with_the_dask_engine(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["audit", str(FIXTURES / "mixed"), "--scheduler",
                                  "tcp://127.0.0.1:8786"])
    assert r.exit_code == 2 and "--scheduler goes with --engine dask" in r.output


def test_an_unknown_engine_is_a_value_error():
    with pytest.raises(ValueError, match="unknown engine='spark'"):
        audit_paths(str(FIXTURES / "mixed"), engine="spark")


def test_the_command_on_a_scheduler_writes_the_local_reports(client, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for engine in (["--engine", "dask", "--scheduler", client.scheduler.address], []):
        tag = "dask" if engine else "local"
        r = runner.invoke(main, ["audit", str(FIXTURES / "mixed"), *engine, "-q",
                                 "-o", f"{tag}.csv", "--findings", f"{tag}-f.csv"])
        assert r.exit_code == 1, r.output  # the session has revokes
    assert Path("dask.csv").read_bytes() == Path("local.csv").read_bytes()
    assert Path("dask-f.csv").read_bytes() == Path("local-f.csv").read_bytes()


def test_without_dask_the_engine_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "distributed", None)
    with pytest.raises(ImportError, match=r"pip install 'revoke-audit\[dask\]'"):
        audit_paths(str(FIXTURES / "mixed"), engine="dask")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["audit", str(FIXTURES / "mixed"), "--engine", "dask"])
    assert r.exit_code == 2
    assert r.output.endswith("the dask engine needs Dask: install the extra with pip install "
                             "'revoke-audit[dask]'\n")


def test_a_large_file_goes_to_the_cluster_in_parts(client, tmp_path, monkeypatch):
    from test_parts import games

    import revoke_audit.engine.units as run

    monkeypatch.setattr(run, "PART_GAMES", 5)
    monkeypatch.setattr(run, "PART_MIN_BYTES", 1)
    path = tmp_path / "big.pbn"
    path.write_text(games(30, revoke_every=4))
    local = audit_paths(str(path))
    dask = audit_paths(str(path), engine="dask", client=client)
    assert len(run.work_units([str(path)], 2, Limits())) == 14  # 4 of 5 games, the last 10 one each
    assert local.boards.equals(dask.boards) and local.findings.equals(dask.findings)


def test_standard_input_is_read_here_in_its_place(client, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pbn = (FIXTURES / "cli" / "revoke.pbn").read_bytes()
    args = ["audit", str(FIXTURES / "mixed"), "-", "-q", "--exit-zero", "--format", "csv"]
    local = CliRunner().invoke(main, args, input=pbn)
    dask = CliRunner().invoke(main, args + ["--engine", "dask", "--scheduler",
                                            client.scheduler.address], input=pbn)
    assert dask.stdout == local.stdout and "<stdin>" in local.stdout


def test_the_dask_engine_gives_the_same_fields_and_standings(client):
    """The sample session with its director's log: the rescored figures and the standings
    (a revoke ruled at the table changes the winner) are the local run's."""
    session = FIXTURES / "session"
    log = session / "director-log.csv"
    local = audit_paths(str(session), table_facts=log)
    dask = audit_paths(str(session), table_facts=log, engine="dask", client=client)
    assert local.boards["mp_pct_ns_adjusted"].notna().all()
    assert local.boards.equals(dask.boards) and local.standings.equals(dask.standings)
    assert list(local.standings["rank"]) != list(local.standings["rank_adjusted"])
