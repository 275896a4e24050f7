"""Trained policies a server's pages may seat, by the name its operator gave them (``--policy NAME=FILE``).

A page may not have the server open a file of its choosing (a policy file is unpickled by
PyTorch when it loads), so the bots that read a file their spec names
(`tapete.core.inputs.FILE_BOTS`) are refused from a form. The person who runs the server
trusts some policies instead: ``tapete serve --policy learner=runs/briscola.zip``. Each file is
judged when the server starts (a tapete policy, trained on the variant's files as they are
now: `tapete.policy.check_policy`) and offered, under its name, to the tables of the variant it
learned, as the bot ``policy:name=learner``.

A table stores that spec, not the path: a table's record, which anyone with a link may fetch,
never says where the server keeps its files, and a server started again without that name
lists the table as one it cannot load, saying why, rather than seating whatever file now
answers to it. The words a page is shown name the policy, never its path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import TapeteError
from ..core.inputs import FILE_BOTS, bot_spec, served_policies

BOT = FILE_BOTS[0]  # "policy": the bot a served policy is seated as


@dataclass(frozen=True)
class Served:
    """One policy the operator trusts: its name on the pages, its file, and what it learned."""

    name: str
    path: Path
    variant: str
    players: int
    options: dict[str, Any]

    @property
    def spec(self) -> str:
        """The spec a page names it by (and a table stores)."""
        return f"{BOT}:name={self.name}"

    def refusal(self, variant: Any, players: int) -> str:
        """Why it cannot sit at a table of ``variant`` for ``players``, in a page's words ('' if it can)."""
        if variant.name != self.variant:
            return f"the policy {self.name} learned {self.variant}, not {variant.name}"
        if players != self.players:
            return f"the policy {self.name} learned {self.variant} at {self.players} players, not {players}"
        if {k: str(v) for k, v in variant.options.items()} != {k: str(v) for k, v in self.options.items()}:
            return f"the policy {self.name} learned {self.variant} with its options as they were: leave them unchanged"
        return ""

    def hide(self, exc: TapeteError) -> TapeteError:
        """``exc`` with the file's path replaced by the policy's name (a page never sees the path)."""
        return TapeteError(str(exc).replace(str(self.path), f"the policy {self.name}"))


class Policies:
    """The policies one server offers, by name; empty unless ``tapete serve --policy`` named some."""

    def __init__(self, pairs: Sequence[tuple[str, str | Path]] = (), load: bool = False):
        """``pairs`` are (name, file); ``load``: load each network now too (the server's start, so a
        file that is no policy, or whose variant's files changed since, stops it before it listens)."""
        from ..policy import check_policy, read_header

        self.served: dict[str, Served] = {}
        for name, path in served_policies([f"{n}={p}" for n, p in pairs]):
            path = path.resolve()
            if set(str(path)) & {",", ":"}:  # a bot spec's separators: the spec built from it would not read back
                raise TapeteError(f"{path}: a served policy's path may not hold ',' or ':'; move or rename the file")
            header = check_policy(path) if load else read_header(path)
            self.served[name] = Served(
                name, path, str(header["variant"]), int(header["players"]), dict(header.get("options") or {})
            )

    def load(self) -> None:
        """Load every served network now (kept by `tapete.policy` for the bots that play it)."""
        from ..policy import check_policy

        for s in self.served.values():
            check_policy(s.path)

    def offered(self, variant: str) -> list[str]:
        """The specs a page may choose for a table of ``variant`` (the policies that learned it)."""
        return [s.spec for s in self.served.values() if s.variant == variant]

    def named(self, spec: str) -> Served | None:
        """The served policy ``spec`` names (``policy:name=NAME``), None for any other bot; a
        ``policy`` spec naming no served policy is refused, naming the ones there are."""
        parsed = bot_spec(spec)
        if parsed.name != BOT or "path" in parsed.params or not parsed.params:
            return None  # another bot, or one that names a file (refused from a page by its caller)
        name = parsed.params.get("name")
        found = self.served.get(str(name)) if set(parsed.params) == {"name"} else None
        if found is None:
            there = ", ".join(sorted(self.served)) or "none"
            raise TapeteError(f"no policy {name!s:.60} is served here (policy:name=NAME; served: {there})")
        return found

    def resolve(self, spec: str) -> str:
        """The spec the bot is built from: a served policy's file for its name, any other bot as it is."""
        if not spec or bot_spec(spec).name != BOT:
            return spec
        found = self.named(spec)
        return spec if found is None else f"{BOT}:path={found.path}"
