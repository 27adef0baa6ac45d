"""The benchmark scripts under bench/ run (a tiny workload) and print their summary."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _benchmarks_write_only_to_temporary_folders():
    """No benchmark leaves a journal (or anything) in the data directory ``serve`` uses."""
    home = Path(os.environ["XDG_DATA_HOME"])
    yield
    assert not [p for p in home.rglob("*") if p.is_file()], "a benchmark wrote into the data dir"


def run_bench(
    *args: str, script: str = "battle_royale.py", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.slow
def test_battle_royale_bench_json() -> None:
    result = run_bench("--games", "3", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert {"machine", "results", "targets", "meets_targets", "games_per_player_count"} <= set(
        summary
    )
    assert summary["games_per_player_count"] == 3
    assert {"machine", "processor", "python"} <= set(summary["machine"])
    assert set(summary["results"]) == {"2", "3", "4"}
    for result_for_count in summary["results"].values():
        step, game = result_for_count["step"], result_for_count["game"]
        assert {"steps", "median_ms", "p90_ms", "p99_ms", "max_ms"} <= set(step)
        assert {"games", "seconds", "cpu_seconds", "games_per_s", "games_per_cpu_s"} <= set(game)
        assert step["steps"] > 0 and step["median_ms"] > 0
        assert game["games"] == 3 and game["games_per_s"] > 0
    assert summary["targets"] == {"step_median_ms_max": 0.5, "games_per_s_4_players_min": 200.0}
    assert set(summary["meets_targets"]) == {"step_median", "games_per_s_4_players"}


def test_battle_royale_bench_text() -> None:
    result = run_bench("--games", "1")
    assert result.returncode == 0, result.stderr
    assert "median step <= 0.5 ms" in result.stdout
    assert ">= 200 full 4-player games per CPU second" in result.stdout
    assert "python:" in result.stdout


@pytest.mark.slow
def test_serve_startup_bench_json() -> None:
    result = run_bench("--runs", "1", "--json", script="serve_startup.py")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["help_s"]["median"] > 0 and summary["help_cpu_s"]["median"] >= 0
    assert set(summary["serve_ready"]) == {"gpio", "serial"}  # each resumed a prepared game
    for profile in summary["serve_ready"].values():
        assert profile["wall_s"]["median"] > 0 and profile["cpu_s"]["median"] > 0
    assert summary["serve_rss_mb"]["peak"] > 0
    assert set(summary["targets"]) == {"help_s", "serve_ready_s", "serve_rss_mb"}


def test_import_time_bench_json() -> None:
    result = run_bench("--runs", "1", "--json", script="import_time.py")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert set(summary["cases"]) == {
        "bare",
        "help",
        "cli",
        "serve",
        "serve-gpio",
        "serve-serial",
        "dashboard",
        "libraries",
        "library-gpio",
        "library-serial",
    }
    assert all(c["median_s"] > 0 for c in summary["cases"].values())
    assert summary["targets"] == {"serve_beyond_bare_s": 0.12, "help_ratio": 1.5}
    # the target is judged for both backends at once and for each backend alone
    assert {"serve_ok", "serve_gpio_ok", "serve_serial_ok", "help_ok"} <= set(summary)


def test_import_bench_interpreter_starts_as_an_installed_table(tmp_path) -> None:
    """The import and start-up benchmarks' interpreter loads no editable finder (a
    ``pip install -e`` checkout's, which hid pathlib, re and enum in the bare start) and
    still reaches the libraries, and the companion through PYTHONPATH."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import import_time
    finally:
        sys.path.remove(str(ROOT / "bench"))
    python = import_time.installed_python(str(tmp_path / "venv"))
    code = (
        "import sys, gpiozero, serial, companion; "
        "print(sorted(m for m in sys.modules if 'editable' in m or m == 'pathlib'))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [python, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "editable" not in done.stdout
    bare = subprocess.run(
        [python, "-c", "import sys; print('pathlib' in sys.modules)"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert bare.stdout.strip() == "False"  # a bare start pays no pathlib


@pytest.mark.slow
def test_import_bench_companion_is_the_installed_wheel(tmp_path) -> None:
    """The import and start-up benchmarks run ``companion`` as a table has it: pip's
    console script of the checkout's wheel, which imports the companion from the
    environment's site-packages (not the checkout) and pays the script's own imports."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import import_time
    finally:
        sys.path.remove(str(ROOT / "bench"))
    command = Path(import_time.installed_companion(str(tmp_path / "venv")))
    env = import_time.ENV
    assert "PYTHONPATH" not in env
    version = subprocess.run(
        [command, "--version"], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert version.returncode == 0, version.stderr
    code = "import sys, companion; print(companion.__file__); print('re' in sys.modules)"
    where = subprocess.run(
        [command.with_name("python"), "-c", code],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert where.returncode == 0, where.stderr
    path, imported_re = where.stdout.split()
    assert Path(path).is_relative_to(tmp_path / "venv" / "lib")  # the wheel, not the checkout
    assert imported_re == "False"  # the import alone does not pay re: the script does


def test_journal_bench_json() -> None:
    result = run_bench(
        "--appends", "20", "--records", "150", "--runs", "1", "--json", script="journal.py"
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["append_fsync_ms"]["count"] == 20 and summary["append_fsync_ms"]["median"] > 0
    assert summary["resume_s"]["records"] >= 150 and summary["resume_s"]["median"] > 0


@pytest.mark.slow
def test_dice_fairness_bench_json() -> None:
    result = run_bench("--rolls", "600", "--json", script="dice_fairness.py")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    dice = {r["die"] for r in summary["results"]}
    assert {"doom", "star", "red", "black", "blue", "d6", "d20"} <= dice
    assert all(0 <= r["p_value"] <= 1 and r["rolls"] == 600 for r in summary["results"])


@pytest.mark.slow
def test_season_startup_bench_json() -> None:
    result = run_bench(
        "--counts", "0", "30", "--runs", "1", "--legacy", "--json", script="season_startup.py"
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert set(summary["ready_s"]) == {"0", "30"} and summary["ratio"] > 0
    assert summary["legacy"]["moved"] == 30


@pytest.mark.slow
def test_season_memory_bench_json() -> None:
    result = run_bench("--games", "2", "--first", "1", "--json", script="season_memory.py")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert set(summary["rss_mb"]) == {"1", "2"} and summary["rss_mb"]["2"] > 0


SEASON_KEPT = (
    "## A season on one Pi\n\nCommand: `python bench/season_memory.py`. Kept figures, | a | table |"
    "\n\n| games | RSS |\n|---|---|\n| 1000 | 61 MB |\n"
)


BOTS_KEPT = "## Bots (search bot, docs/bots.md)\n\nCommand: `python bench/bots.py`. Kept.\n"

OLD_MACHINE = "Machine: x86_64 An older host, 2 cores; CPython 3.11.7. Measured 2026-11-20."


def carried(section: str) -> str:
    """*section* as --keep carries it over: under its heading, the run it comes from."""
    heading, rest = section.split("\n", 1)
    return (
        f"{heading}\n\n*Carried over by `bench/run --keep`, not measured again: from the run "
        f"on x86_64 An older host, 2 cores; CPython 3.11.7. Measured 2026-11-20.*\n{rest}"
    )


@pytest.mark.slow
def test_bench_run_writes_every_section(tmp_path) -> None:
    """Every script still runs and renders (tiny sizes); the season's and the bots' runs are
    kept (their scripts are smoke-run and rendered by the --only season test and the bots
    test below), their sections carried over."""
    out = tmp_path / "performance.md"
    out.write_text(
        f"# Performance\n\n{OLD_MACHINE}\n\n"
        + SEASON_KEPT
        + "\n## Dice fairness\n\nold dice\n\n"
        + BOTS_KEPT
    )
    result = run_bench(
        "--quick", "--keep", "season", "bots", "--out", str(out), script="run", timeout=115
    )
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    for heading in (
        "## Battle Royale engine",
        "## Red button to solenoid",
        "## Start-up and memory",
        "## Journal",
        "## Dice fairness",
        "## A season on one Pi",
        "## Bots (search bot",
    ):
        assert heading in text
    assert "python bench/" in text  # every figure names the command that reproduces it
    # verbatim, between its neighbours, saying which run it comes from
    assert "\n\n" + carried(SEASON_KEPT) + "\n## " in text
    assert "old dice" not in text and "season_startup.py" not in result.stderr  # not rerun
    assert "\n\n" + carried(BOTS_KEPT) + "\n## " in text and "bots.py" not in result.stderr
    assert "Speed reference: a bare `python -c pass` takes" in text


def test_a_kept_section_names_its_run_once(tmp_path) -> None:
    """Carried over again, a section still names the run that measured it, not the run
    that carried it over the first time."""
    run = load_bench_run()
    out = tmp_path / "performance.md"
    out.write_text(f"# Performance\n\n{OLD_MACHINE}\n\n{SEASON_KEPT}")
    first = run.kept_section(out, "## A season on one Pi")
    assert "\n".join(first) == "\n" + carried(SEASON_KEPT).rstrip("\n")
    newer = "Machine: x86_64 A newer host, 2 cores; CPython 3.11.7. Measured 2026-11-24."
    out.write_text("# Performance\n\n" + newer + "\n" + "\n".join(first) + "\n")
    assert run.kept_section(out, "## A season on one Pi") == first


def test_the_serve_path_is_scaled_to_the_targets_host() -> None:
    """A host twice as fast meets 0.12 s with what takes 0.2 s on the targets' host: the
    import section says so."""
    run = load_bench_run()
    bare_s = run.TARGET_HOST_BARE_MS / 2 / 1000
    it = {
        "cases": {
            "bare": {"median_s": bare_s},
            "serve-gpio": {"beyond_bare_s": 0.1},
            "serve-serial": {"beyond_bare_s": 0.05},
        },
        "targets": {"serve_beyond_bare_s": 0.12},
    }
    assert run.host_speed(it) == pytest.approx(2.0)
    (line,) = run.scaled_serve(it)
    assert "gpio 200 ms (**missed**), serial 100 ms (met)" in line


def test_bench_run_keep_season_needs_the_section(tmp_path) -> None:
    out = tmp_path / "performance.md"
    out.write_text("# Performance\n\n## Journal\n\nold\n")
    result = run_bench("--quick", "--keep", "season", "--out", str(out), script="run")
    assert result.returncode == 2
    assert "has no '## A season on one Pi' section to keep" in result.stderr
    assert out.read_text() == "# Performance\n\n## Journal\n\nold\n"  # untouched


@pytest.mark.slow
def test_bench_run_only_season_rewrites_only_its_section(tmp_path) -> None:
    out = tmp_path / "performance.md"
    before = "# Performance\n\n## Journal\n\nold journal figures\n\n## Dice fairness\n\nold dice\n"
    out.write_text(before)
    for _ in range(2):  # inserted the first time, replaced the second
        result = run_bench("--only", "season", "--quick", "--out", str(out), script="run")
        assert result.returncode == 0, result.stderr
        text = out.read_text()
        assert text.count("## A season on one Pi") == 1 and "python bench/season_memory.py" in text
        assert text.index("## Journal") < text.index("## A season") < text.index("## Dice")
        assert "old journal figures" in text and text.endswith("## Dice fairness\n\nold dice\n")


@pytest.mark.slow
def test_web_latency_bench_json() -> None:
    pytest.importorskip("starlette")
    result = run_bench("--actions", "5", "--presses", "5", "--json", script="web_latency.py")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["actions"] > 0 and summary["visible_ms"]["p99"] > 0
    assert summary["server_rss_mb"]["peak"] > 0 and summary["pages"] == 6
    serve_web = summary["serve_web"]  # companion serve --web, six pages, phones pressing
    assert serve_web["pages"] == 6 and 1 <= serve_web["presses"] <= 5
    # serve rolls the system's dice: an explosion or the game's end may end the presses
    # early, never a miscount
    ended_early = ("the red button", "the end of the game")
    assert serve_web["presses"] == 5 or serve_web["stopped_at"] in ended_early
    assert serve_web["rss_mb"]["peak"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("where", [[], ["--bot-in-thread"]])
def test_red_button_bench_while_a_search_bot_thinks(where: list[str]) -> None:
    result = run_bench("--presses", "10", "--conditions", "bot", *where, script="hal_latency.py")
    assert result.returncode == 0, result.stderr
    bot = json.loads(result.stdout.strip().splitlines()[-1])["results"]["bot"]
    assert bot["presses"] == 10 and bot["fired"] == 10
    assert bot["bot_moves"] > 0  # the bot really thought during the presses
    assert ("on that thread" in bot["condition"]) == bool(where)


@pytest.mark.slow
def test_red_button_bench_with_six_pages_on_the_web_view() -> None:
    pytest.importorskip("starlette")
    result = run_bench("--presses", "10", "--conditions", "web", "--hops", script="hal_latency.py")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    web = summary["results"]["web"]
    assert web["presses"] == 10 and web["fired"] == 10
    assert web["web_frames_seen"] > 0  # the six pages were live while the button was hit
    hops = web["hops_ms"]  # each press's hops stamped, edge to coil
    assert hops["slowest 1%"] == 1
    beyond = hops["beyond the glitch window: window end -> coil pin high"]
    assert 0 < beyond["median"] <= beyond["p99"]


def load_bench_run():
    """bench/run as a module (it has no .py suffix)."""
    from importlib.machinery import SourceFileLoader
    from importlib.util import module_from_spec, spec_from_loader

    loader = SourceFileLoader("bench_run", str(ROOT / "bench" / "run"))
    spec = spec_from_loader("bench_run", loader)
    assert spec is not None
    run = module_from_spec(spec)
    loader.exec_module(run)
    return run


@pytest.mark.slow
def test_bots_bench_json() -> None:
    result = run_bench("--quick", "--json", script="bots.py")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    section = load_bench_run().render_bots({**summary, "_command": "python bench/bots.py"})
    assert section[1] == "## Bots (search bot, docs/bots.md)" and len(section) > 10
    assert set(summary["timing"]) == {"battle-royale", "gladiatoren", "skirmish", "spartacus"}
    for levels in summary["timing"].values():
        assert set(levels) == {"easy", "normal", "strong"}
        assert all(t["moves"] >= 1 and t["median_ms"] > 0 for t in levels.values())
    assert set(summary["strength"]) == {
        "br_vs_random",
        "gladiatoren_vs_current",
        "gladiatoren_vs_table",
    }
    for r in summary["strength"].values():
        low, high = r["standings"][0]["wilson95"]
        assert 0 <= low <= r["standings"][0]["rate"] <= high <= 1
    assert summary["targets"]["normal_median_ms_max"] == 100.0


def test_bench_run_states_each_games_targets_once() -> None:
    """A game's section says each target beside whether it was met (a target whose name
    starts like another's, odds and odds_vs_icepool, is said once, under its own)."""
    run = load_bench_run()
    result = {
        "targets": {"odds_ms_max": 50.0, "odds_vs_icepool_ratio_max": 1.0},
        "meets_targets": {"odds": True, "odds_vs_icepool": False},
    }
    assert run.targets_line(result) == [
        "",
        "Targets: `odds_ms_max` 50: met; `odds_vs_icepool_ratio_max` 1: **missed**.",
    ]
    assert run.targets_line({}) == []


def test_a_games_figures_give_the_pi_estimate_by_kind() -> None:
    """Times are ten times longer on a Pi Zero 2 W, rates ten times lower; a memory size
    is about the same there, never multiplied (the 8 vs 8 odds' peak memory)."""
    run = load_bench_run()
    table = run.figures_table(
        {
            "odds": {"8v8": {"median_ms": 68.0}},
            "games_per_s": 500.0,
            "odds_8v8_memory": {"peak_mb": 73.0},
            "targets": {"odds_ms_max": 50.0},
        }
    )
    assert table[2:] == [
        "| odds / 8v8 / median_ms | 68.000 ms | ~680 ms |",
        "| games_per_s | 500 /s | ~50 /s |",
        "| odds_8v8_memory / peak_mb | 73.000 MB | about the same (memory does not scale with "
        "speed) |",
    ]
