"""The layering of ``companion/games``: engines are pure, share only the core, and no import
runs in a circle (function-level and type-checking imports count too)."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "companion" / "games"
ENGINES = ("battle_royale", "kampf_der_gladiatoren", "arena_skirmish", "spartacus")
FORBIDDEN = (
    "companion.hal",
    "companion.table",
    "companion.ui",
    "companion.web",
    "companion.cli",
    "companion.commands",
)
# no clock and no random generator: engines never roll and never look at the time
FORBIDDEN_STDLIB = {"random", "time", "datetime", "secrets"}


def module_name(path: Path) -> str:
    parts = path.relative_to(GAMES.parents[1]).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """Every import in the file: (module, names imported from it)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in GAMES.rglob("*.py")}
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for target, names in imports(path):
            for candidate in [f"{target}.{n}" for n in names] + [target]:
                if candidate in modules and candidate != name:
                    edges[name].add(candidate)
                    break
    return edges


def test_games_import_nothing_above_them_nor_a_clock_or_a_random_generator():
    for path in GAMES.rglob("*.py"):
        for target, names in imports(path):
            assert not target.startswith(FORBIDDEN), f"{path.name} imports {target}"
            assert target.split(".")[0] not in FORBIDDEN_STDLIB, f"{path.name} imports {target}"
            if target == "companion.dice":  # die definitions only, never a roller
                assert set(names) <= {"get_die", "DiceError"}, f"{path.name} imports {names}"


def test_engines_share_only_the_core():
    for engine in ENGINES:
        for path in (GAMES / engine).rglob("*.py"):
            for target, _ in imports(path):
                for other in ENGINES:
                    if other != engine:
                        assert not target.startswith(f"companion.games.{other}"), (
                            f"{engine}/{path.name} imports {target}"
                        )
    for path in (GAMES / "core").rglob("*.py"):
        for target, _ in imports(path):
            assert not any(target.startswith(f"companion.games.{e}") for e in ENGINES), path


def test_no_import_cycles_inside_games():
    edges = graph()
    state: dict[str, int] = {}  # 1 on the path, 2 done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt) :] + [nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    assert edges["companion.games.battle_royale.state"]  # the graph is really read
