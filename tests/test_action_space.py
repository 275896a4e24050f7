"""The learning environment's action space is complete by construction, in every registered variant.

Each family declares its moves (`Game.move_kinds`) and the environment numbers its
slots from that declaration (docs/rl.md, The action space). The property: at every
decision of many deals (random play and the game's default bot, fixed seeds), the
legal moves and the unmasked slots are in one-to-one correspondence: every legal
move has exactly one slot, no two share one, no legal move is dropped, and every
slot the mask opens plays a legal move. Before the declarations, the slots came
from random exploration deals and ``gin/oklahoma`` had no ``knock`` slot at all.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import variant

from tapete import Action, Game, Random, registry
from tapete.core.rng import derive_seed
from tapete.testing import variant_names, variant_params

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from tapete.pettingzoo import Layout, env  # noqa: E402

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rl.md"
RANDOM_DEALS = 4
BOT_DEALS = 2
STEPS = 250  # per deal: the fishing games end well before, a rummy deal may run longer


def _players(v) -> int:
    lo, hi = v.player_range()
    return min(max(lo, v.default_players()), hi)


def _decisions(e):
    """(observation, info) of each agent to move along the episode; the caller steps it."""
    for _agent in e.agent_iter():
        obs, _, done, truncated, info = e.last()
        if done or truncated:
            e.step(None)
        else:
            yield obs, info


def _default_bots(record, v, players, seed):
    factory = record.default_factory()
    return [factory(v.new_game(), s, Random(derive_seed(seed, "bot", s))) for s in range(players)]


def _same_move(a, b) -> bool:
    """Two moves are one when kind, word and first card agree and their further cards are one set."""
    return _canonical(a) == _canonical(b)


def _canonical(a):
    return (a.kind, a.detail, a.cards[:1], frozenset(a.cards[1:]))


def _check_decision(layout: Layout, legal, where) -> None:
    deck = layout.game.deck
    slots = [layout.index(a) for a in legal]
    assert None not in slots, (where, [a for a, s in zip(legal, slots, strict=True) if s is None])
    assert len(set(slots)) == len(slots), (where, "two legal moves share a slot")
    for a, s in zip(legal, slots, strict=True):
        assert 0 <= s < layout.size
        said = layout.describe(s)
        if said.endswith(" ..."):  # a card that takes whatever the table holds (SC-V4)
            assert Action.parse(said[:-4], deck) == Action(a.kind, a.cards[:1], a.detail), (where, a, said)
        else:
            assert _same_move(Action.parse(said, deck), a), (where, a, said)


@pytest.mark.parametrize("name", variant_params())
def test_every_legal_move_has_exactly_one_slot_in_random_and_default_bot_deals(name):
    v = variant(name)
    players = _players(v)
    layout = Layout(v, players)
    assert not layout.explored, f"{v.spec.game} declares no move kinds"
    record = registry().record(v.spec.game, v.game_class)
    decisions = 0
    for k in range(RANDOM_DEALS + BOT_DEALS):
        seed = derive_seed(name, "space", k)
        deal = v.new_deal(players, seed=seed, record=False)
        rng = Random(seed, "moves")
        bots = None
        if k >= RANDOM_DEALS:  # the default bot reaches the hands random play rarely does (a knock)
            bots = _default_bots(record, v, players, seed)
        steps = 0
        while not deal.over and steps < STEPS:
            legal = deal.legal_actions()
            _check_decision(layout, legal, (k, steps))
            decisions += 1
            if bots is None:
                move = legal[rng.below(len(legal))]
            else:
                seat = deal.to_move
                move = bots[seat].choose(deal.view(seat), legal)
            deal.play(move)
            steps += 1
    assert decisions > 0


@pytest.mark.parametrize("name", variant_params())
def test_the_mask_opens_exactly_the_legal_moves_and_each_slot_plays_its_move(name):
    # Through the environment: the mask is the set of slots of the legal moves, a slot played is
    # its move, and nothing is dropped or shares a slot (the step's info would say so).
    e = env(name)
    e.reset(seed=3)
    rng = Random(name, "mask")
    steps = 0
    for _agent in e.agent_iter():
        obs, _, done, truncated, info = e.last()
        if done or truncated:
            e.step(None)
            continue
        if steps >= 60:
            break
        legal = e.deal.legal_actions()
        open_slots = set(np.flatnonzero(obs["action_mask"]).tolist())
        assert open_slots == {e.layout.index(a) for a in legal}
        assert "dropped" not in info and "collisions" not in info
        slot = sorted(open_slots)[rng.below(len(open_slots))]
        assert e.legal_moves()[slot] in legal
        e.step(slot)
        steps += 1
    assert e.dropped == 0 and e.collisions == 0


@pytest.mark.parametrize("name", variant_params())
def test_the_move_kinds_are_the_kinds_the_table_help_lists(name):
    # The same family names its moves twice, for a person (moves_help) and for a learner
    # (move_kinds): the kinds must agree, or one of them forgot a move.
    game = variant(name).new_game()
    helped = {m.kind for m in game.moves_help()}
    declared = {k.kind for k in game.move_kinds() or ()}
    if helped:
        assert declared == helped


def test_gin_variants_have_a_knock_slot_for_every_card():
    # GR-4.3: random exploration never reached a hand that may knock in these variants.
    for name in ("gin/oklahoma", "gin/discard-taken", "gin/standard"):
        layout = env(name).layout
        knocks = [s for s in range(layout.size) if layout.describe(s).startswith("knock ")]
        assert len(knocks) == layout.deck_size, name


def test_scopa_captures_are_numbered_without_collisions():
    # SC-3.3: a card may take any set of table cards adding up to it, so the capture slots name the
    # played card and the whole set taken; two sets differing only after their second card (3♠ 2♣ 5♥
    # against 3♠ 2♣ 5♦... of a king) get different slots, whatever order the table lists them in.
    layout = env("scopa/classic").layout
    deck = layout.game.deck
    a = layout.index(_action(deck, "capture K♦ 3♠ 2♣ 5♥"))
    b = layout.index(_action(deck, "capture K♦ 3♠ 2♣ 5♦"))
    c = layout.index(_action(deck, "capture K♦ 5♥ 2♣ 3♠"))
    assert a is not None and b is not None and a != b and a == c
    assert layout.describe(a) == "capture K♦ 2♣ 5♥ 3♠"  # the further cards in deck order
    assert layout.index(_action(deck, "capture K♦ 3♠ 2♣ 6♥")) is None  # adds up to 11: no capture of a king


def _action(deck, text):
    return Action.parse(text, deck)


def test_a_family_that_declares_no_moves_is_explored_and_counts_what_it_drops(monkeypatch):
    # A third-party family without move_kinds still works: the slots come from exploring random
    # deals (docs/rl.md). Random play never reaches a hand that may knock in Oklahoma (GR-4.3), so
    # exploring finds no knock: the default bot's deals reach one, and the knock is left out of
    # the mask, counted in env.dropped and told in the step's info.
    import tapete.pettingzoo as pz
    from tapete_plugins.chinchon.game import Chinchon

    monkeypatch.setattr(Chinchon, "move_kinds", Game.move_kinds)
    monkeypatch.setattr(pz, "_LAYOUTS", {})
    e = env("gin/oklahoma")
    assert e.layout.explored
    assert not any(e.layout.describe(s).startswith("knock") for s in range(e.layout.size))
    record = registry().record("gin", Chinchon)
    for seed in range(5):
        e.reset(seed=seed)
        bots = _default_bots(record, e.variant, e.players, seed)
        for _obs, info in _decisions(e):
            legal = e.deal.legal_actions()
            without = [a for a in legal if e.layout.index(a) is None]
            assert info.get("dropped", 0) == len(without)
            if without:
                assert {a.kind for a in without} == {"knock"} and e.dropped == len(without)
                return
            seat = e.deal.to_move
            move = bots[seat].choose(e.deal.view(seat), legal)
            e.step(next(s for s, a in e.legal_moves().items() if a == move))
    pytest.fail("no deal reached a hand that may knock")


def _row(name: str) -> str:
    layout = env(name).layout
    blocks = ", ".join(f"{label} {count:,}" for label, count in layout.blocks())
    return f"| `{name}` | {layout.size:,} | {blocks} |"


def test_the_docs_table_gives_every_variants_action_space_size():
    rows = {m[1]: m[0] for m in re.finditer(r"^\| `([\w/-]+)` \| [\d,]+ \|.*$", DOCS.read_text(encoding="utf-8"), re.M)}
    expected = {name: _row(name) for name in variant_names()}
    wrong = [name for name, row in expected.items() if rows.get(name) != row]
    table = "\n".join(expected.values())
    assert not wrong, f"docs/rl.md's table of action-space sizes is wrong for {wrong}; it should read:\n{table}"


def test_a_reduced_capture_shares_one_slot_and_the_step_info_counts_what_it_left_out(monkeypatch):
    # A script whose sums would be too many to list (pips of 0) gets one slot per card for them
    # (docs/rl.md): Scopa with the limit lowered to 50 sets per card. When a card may take two sets
    # (SC-3.3), the first in the game's order keeps the slot and the others are counted, in
    # env.collisions and in the info of the agent to move.
    import tapete.pettingzoo as pz
    import tapete_plugins.chinese_ten.game as fishing

    monkeypatch.setattr(fishing, "MAX_SUM_SETS", 50)
    monkeypatch.setattr(pz, "_LAYOUTS", {})
    e = env("scopa/classic")
    assert e.layout.size < 16_200
    seen = 0
    for seed in range(20):
        e.reset(seed=seed)
        rng = Random(seed, "reduced")
        for obs, info in _decisions(e):
            legal = e.deal.legal_actions()
            left_out = len(legal) - len({e.layout.index(a) for a in legal})
            assert info.get("collisions", 0) == left_out
            seen += left_out
            open_slots = np.flatnonzero(obs["action_mask"])
            e.step(int(open_slots[rng.below(len(open_slots))]))
        if seen:
            break
    assert seen and e.collisions == seen
